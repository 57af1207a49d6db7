import MetronomeCore
import MetronomeViewModel

/// Keeps a view model on a Link session's beats, one cycle at a time.
///
/// A tempo or a start or stop made here (by a key, by the metronome itself) goes to the session first, so
/// every peer hears it, a tempo from the session's next beat on; then the session's tempo, beat
/// and playing place the beats as a transport's would, the bar of the meter playing here being
/// the session's quantum. A start waits for the session's next bar line, holding the beats until
/// then; the start at launch first waits for peers, a second and a half at most, so as not to
/// play alone while Link measures their clocks.
public struct LinkFollower: Sendable {
  /// How long the start at launch waits for peers: Link finds them and measures their clocks
  /// within about a second.
  static let peerSearchSeconds = 1.5
  private var transport: TransportFollower
  private let startsPlaying: Bool
  /// The tempo and playing the view model settled on after the last cycle: a change since then
  /// was made here, for the session to hear.
  private var settled: (tempo: Tempo, isPlaying: Bool)?

  /// A follower counting frames at `sampleRate`, starting the session if it does not play and
  /// `startsPlaying` says to.
  public init(sampleRate: SampleRate, startsPlaying: Bool) {
    transport = TransportFollower(sampleRate: sampleRate, source: .link)
    self.startsPlaying = startsPlaying
  }

  /// Follows `session` for the cycle whose first frame, `cycleStart`, is heard at `micros` on the
  /// session's clock.
  public mutating func follow(
    _ session: some LinkSession, atFrame cycleStart: Int64, heardAtMicros micros: Int64,
    viewModel: MetronomeViewModel
  ) {
    let state = viewModel.currentState
    let quantum = state.meter.quartersPerBar
    var snapshot = session.snapshot(atMicros: micros, quantum: quantum)
    var asked = false
    if let settled {
      if state.tempo != settled.tempo {
        // From the session's next beat, which so keeps its time for every peer, however soon
        // the change reaches them.
        let beatLength = state.meter.quartersPerBeat
        let next = (snapshot.beat / beatLength).rounded(.up) * beatLength
        session.setTempo(
          state.tempo, atMicros: micros + Int64(((next - snapshot.beat) * 60e6 / snapshot.tempo).rounded()))
        asked = true
      }
      if state.isPlaying != settled.isPlaying {
        if state.isPlaying { session.start(atMicros: micros, quantum: quantum) } else { session.stop(atMicros: micros) }
        asked = true
      }
    } else if startsPlaying, !snapshot.isPlaying {
      let searching = Double(cycleStart) < Self.peerSearchSeconds * Double(transport.sampleRate.hz)
      guard session.peers > 0 || !searching else { return }
      session.start(atMicros: micros, quantum: quantum)
      asked = true
    }
    if asked { snapshot = session.snapshot(atMicros: micros, quantum: quantum) }
    let reading = TransportReading(
      quarters: snapshot.beat, tempo: snapshot.tempo,
      isRolling: snapshot.isPlaying && snapshot.beat > -state.meter.quartersPerBeat, meter: state.meter,
      sampleRate: transport.sampleRate)
    if let change = transport.follow(reading, atFrame: cycleStart, tempo: state.tempo, meter: state.meter) {
      viewModel.actions.send(.follow(change))
    } else if !reading.isRolling, viewModel.currentState.isPlaying {
      // Started here, the session waits for its bar line: so do the beats.
      viewModel.actions.send(.follow(nil))
    }
    let now = viewModel.currentState
    settled = (now.tempo, now.isPlaying)
  }
}
