// The few calls metronome makes of Ableton Link, as C for Swift to import. GPL-2.0-or-later, as
// Link is: CLink.cpp compiles to nothing without the AbletonLink trait.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A Link instance, enabled, syncing start and stop.
typedef struct metronome_link metronome_link;

/// The session at one moment: quarter notes a minute, this instance's beat, whether it plays.
typedef struct {
  double tempo;
  double beat;
  bool is_playing;
} metronome_link_state;

/// Joins (or starts) a session, at `tempo` when it is the first peer; NULL when Link fails.
metronome_link *metronome_link_create(double tempo);
/// Leaves the session.
void metronome_link_destroy(metronome_link *link);
/// Now on the session's clock, in microseconds.
int64_t metronome_link_clock_micros(const metronome_link *link);
/// The other peers.
size_t metronome_link_peers(const metronome_link *link);
/// The session at `micros`, beats counted in bars of `quantum`; from the audio thread only.
/// A start seen for the first time puts this instance's beat 0 on the start's bar line.
metronome_link_state metronome_link_capture(metronome_link *link, int64_t micros, double quantum);
/// Sets the tempo from `micros` on; from the audio thread only.
void metronome_link_set_tempo(metronome_link *link, double tempo, int64_t micros);
/// Starts playing at `micros`, beat 0 on the next bar line the peers share; from the audio
/// thread only.
void metronome_link_start(metronome_link *link, int64_t micros, double quantum);
/// Stops playing at `micros`; from the audio thread only.
void metronome_link_stop(metronome_link *link, int64_t micros);

#ifdef __cplusplus
}
#endif
