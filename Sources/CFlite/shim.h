#include <flite/flite.h>
/* malloc_trim: the memory flite used while speaking goes back to the system once it is done. */
#include <malloc.h>

/* The voice metronome counts with: CMU's US English "slt", built into libflite_cmu_us_slt. */
cst_voice *register_cmu_us_slt(const char *voxdir);
void unregister_cmu_us_slt(cst_voice *voice);
