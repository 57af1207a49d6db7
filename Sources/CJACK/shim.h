#ifndef METRONOME_CJACK_SHIM_H
#define METRONOME_CJACK_SHIM_H

#include <jack/jack.h>
#include <jack/transport.h>
#include <jack/midiport.h>

/* jack_client_open is variadic, which Swift cannot call: this opens a client of `name` on the
   running server (never starting one) with no further arguments. */
static inline jack_client_t *metronome_jack_client_open(const char *name, jack_status_t *status) {
  return jack_client_open(name, JackNoStartServer, status);
}

#endif
