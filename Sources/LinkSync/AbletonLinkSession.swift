// GPL-2.0-or-later, as the Ableton Link it calls: empty without the AbletonLink trait.
#if AbletonLink
import CLink
import MetronomeCore
import MetronomeEngine

/// An Ableton Link session, joined through Link's own library: the only Swift that calls it.
///
/// `@unchecked Sendable`: the snapshot, tempo, start and stop calls come from the audio thread
/// only, as Link's audio-thread session state requires; the clock and the peer count are safe
/// from any thread.
public final class AbletonLinkSession: LinkSession, @unchecked Sendable {
  private let link: OpaquePointer

  /// Joins the session on the local network, or starts one at `tempo`; nil when Link fails.
  public init?(tempo: Tempo) {
    guard let link = metronome_link_create(tempo.bpm) else { return nil }
    self.link = link
  }

  deinit { metronome_link_destroy(link) }

  /// Now on the session's clock, in microseconds.
  public var micros: Int64 { metronome_link_clock_micros(link) }

  /// The other peers in the session.
  public var peers: Int { Int(metronome_link_peers(link)) }

  /// The session at `micros`; a start seen for the first time numbers bars from it.
  public func snapshot(atMicros micros: Int64, quantum: Double) -> LinkSnapshot {
    let state = metronome_link_capture(link, micros, quantum)
    return LinkSnapshot(tempo: state.tempo, beat: state.beat, isPlaying: state.is_playing)
  }

  /// Sets the session's tempo from `micros` on.
  public func setTempo(_ tempo: Tempo, atMicros micros: Int64) { metronome_link_set_tempo(link, tempo.bpm, micros) }

  /// Starts the session at `micros`, beat 0 on the next bar line the peers share.
  public func start(atMicros micros: Int64, quantum: Double) { metronome_link_start(link, micros, quantum) }

  /// Stops the session at `micros`.
  public func stop(atMicros micros: Int64) { metronome_link_stop(link, micros) }
}
#endif
