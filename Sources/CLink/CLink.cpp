// The only file that calls Ableton Link. GPL-2.0-or-later, as Link is.
#include "CLink.h"

#ifdef METRONOME_ABLETON_LINK

#include <ableton/Link.hpp>

#include <chrono>

struct metronome_link {
  ableton::Link link;
  /// Whether the last capture saw the session playing: a start seen anew is aligned to.
  bool was_playing = false;

  explicit metronome_link(double tempo) : link(tempo) {}
};

metronome_link *metronome_link_create(double tempo) {
  try {
    auto *created = new metronome_link(tempo);
    created->link.enableStartStopSync(true);
    created->link.enable(true);
    return created;
  } catch (...) {
    return nullptr;
  }
}

void metronome_link_destroy(metronome_link *link) { delete link; }

int64_t metronome_link_clock_micros(const metronome_link *link) { return link->link.clock().micros().count(); }

size_t metronome_link_peers(const metronome_link *link) { return link->link.numPeers(); }

metronome_link_state metronome_link_capture(metronome_link *link, int64_t micros, double quantum) {
  auto state = link->link.captureAudioSessionState();
  const bool playing = state.isPlaying();
  if (playing && !link->was_playing) {
    // Bars count from the start, for whoever made it; the phase is the session's either way.
    state.requestBeatAtStartPlayingTime(0, quantum);
    link->link.commitAudioSessionState(state);
  }
  link->was_playing = playing;
  return {state.tempo(), state.beatAtTime(std::chrono::microseconds(micros), quantum), playing};
}

void metronome_link_set_tempo(metronome_link *link, double tempo, int64_t micros) {
  auto state = link->link.captureAudioSessionState();
  state.setTempo(tempo, std::chrono::microseconds(micros));
  link->link.commitAudioSessionState(state);
}

void metronome_link_start(metronome_link *link, int64_t micros, double quantum) {
  auto state = link->link.captureAudioSessionState();
  state.setIsPlayingAndRequestBeatAtTime(true, std::chrono::microseconds(micros), 0, quantum);
  link->link.commitAudioSessionState(state);
}

void metronome_link_stop(metronome_link *link, int64_t micros) {
  auto state = link->link.captureAudioSessionState();
  state.setIsPlaying(false, std::chrono::microseconds(micros));
  link->link.commitAudioSessionState(state);
}

#endif
