#ifndef METRONOME_CLIBLO_SHIM_H
#define METRONOME_CLIBLO_SHIM_H

#include <lo/lo.h>

#endif
