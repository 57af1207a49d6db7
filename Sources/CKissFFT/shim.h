#define kiss_fft_scalar float
#include <kissfft/kiss_fftr.h>
