#include "build_info.h"

const char *metronome_build_commit(void) { return METRONOME_COMMIT; }
