import JACKOutput
import MetronomeCore
import MetronomeEngine

#if AbletonLink
import LinkSync
#endif

/// Wires an outside clock to the engine: the JACK transport (followed, or led as its timebase
/// master), MIDI clock received, or an Ableton Link session.
///
/// Each clock is a follower in the engine, tested in virtual time; this is only their wiring to a
/// JACK client. A new clock is one more case here and one follower.
enum ClockConnection {
  /// `settings` as `clock` would have them: an outside clock starts the beats, and a transport's
  /// master plays in whatever meter it likes.
  static func adapt(_ settings: inout PlaybackSettings, to clock: PlayRequest.Clock?) {
    guard let clock else { return }
    settings.startsPlaying = false
    if case .transport = clock { settings.cap = NumeratorCap(atLeast: NumeratorCap.ceiling) }
  }

  /// Has `engine` follow `clock` through `server`.
  ///
  /// Returns what the display says of the sync, if anything; a client that cannot follow leaves
  /// the server.
  static func connect(_ clock: PlayRequest.Clock, of engine: ClickEngine, through server: JACKSink) throws(RunError)
    -> (@Sendable () -> String)?
  {
    do {
      switch clock {
      case .link:
        #if AbletonLink
        return try followLink(with: engine, through: server)
        #else
        return nil
        #endif
      case .midiClock(let sources):
        try followMIDIClock(with: engine, through: server, from: sources)
        return nil
      case .transport(let isMaster):
        var follower = TransportFollower(sampleRate: server.sampleRate)
        engine.follow { follower.follow(server.transport(), atFrame: $0, tempo: $1, meter: $2) }
        if isMaster {
          let viewModel = engine.viewModel
          let rate = server.sampleRate
          try server.becomeTimebaseMaster { frame in
            let state = viewModel.currentState
            return TimebaseMaster.position(atFrame: frame, tempo: state.tempo, meter: state.meter, sampleRate: rate)
          }
        }
        return nil
      }
    } catch {
      server.stop()
      throw .runtime("\(error)")
    }
  }

  /// Follows the MIDI clock `server`'s port `midi_in` receives, from `sources`.
  private static func followMIDIClock(with engine: ClickEngine, through server: JACKSink, from sources: [String])
    throws
  {
    let input = try server.addMIDIInput(named: "midi_in", connections: sources)
    var follower = MIDIClockFollower(sampleRate: server.sampleRate)
    engine.follow { cycleStart, tempo, meter in
      server.receiveMIDI(on: input) { offset, status, first, second in
        guard let message = MIDIClock.Message(status, first, second) else { return }
        follower.receive(message, atFrame: cycleStart + Int64(offset))
      }
      return follower.follow(cycleStart: cycleStart, tempo: tempo, meter: meter)
    }
  }

  #if AbletonLink
  /// Joins a Link session and has `engine`'s view model follow it, each cycle read at the
  /// moment `server` will play it; returns the session's peers as the display says them.
  private static func followLink(with engine: ClickEngine, through server: JACKSink) throws(RunError)
    -> @Sendable () -> String
  {
    guard let session = AbletonLinkSession(tempo: engine.settings.tempo) else {
      throw .runtime("Ableton Link would not start: is the loopback interface up?")
    }
    var follower = LinkFollower(sampleRate: server.sampleRate, startsPlaying: true)
    let viewModel = engine.viewModel
    engine.beforeEachPeriod { cycleStart in
      follower.follow(
        session, atFrame: cycleStart, heardAtMicros: session.micros + server.microsUntilCycleIsHeard(),
        viewModel: viewModel)
    }
    return { "Link · \(session.peers) peer\(session.peers == 1 ? "" : "s")" }
  }
  #endif
}
