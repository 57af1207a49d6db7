#ifndef METRONOME_CALSA_SHIM_H
#define METRONOME_CALSA_SHIM_H

#include <alsa/asoundlib.h>

/* ALSA prints its own diagnostics to stderr through a variadic handler, which Swift cannot
   define; metronome reports every failure itself (with snd_strerror), so they are dropped. */
static void metronome_alsa_discard_error(const char *file, int line, const char *function, int err,
                                         const char *fmt, ...) {
  (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void metronome_alsa_silence_errors(void) {
  snd_lib_error_set_handler(metronome_alsa_discard_error);
}

#endif
