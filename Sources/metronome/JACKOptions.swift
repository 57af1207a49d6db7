import ArgumentParser
import JACKOutput
import MetronomeCore
import MetronomeEngine

#if AbletonLink
import LinkSync
#endif

/// `--jack` and what goes with it: the client's name and connections, following the transport or
/// being its timebase master, MIDI clock, and Ableton Link; and the wiring of each to the engine.
struct JACKOptions: ParsableArguments {
  @Flag(help: "Play as a JACK client of its own, rendering in the server's cycles, instead of through ALSA.")
  var jack = false

  @Option(help: ArgumentHelp("The JACK client's name.", valueName: "name"))
  var clientName = "metronome"

  @Flag(
    help: """
      With --jack, follow the JACK transport: play while it rolls, on its beats (a timebase master's bar, beat, \
      tempo and meter, or else its frame at this tempo).
      """)
  var followTransport = false

  @Flag(
    help: """
      With --jack, be the JACK transport's timebase master: publish bar, beat, tempo and meter, counted from the \
      transport's frame 0 at this tempo, and play while it rolls.
      """)
  var timebaseMaster = false

  @Flag(
    help: """
      With --jack, send MIDI clock on a JACK MIDI port, midi_out: 24 ticks a quarter note on their exact frames, \
      Song Position and Start on bar one, Stop when paused.
      """)
  var midiClock = false

  @Option(help: ArgumentHelp("JACK MIDI input ports to connect midi_out to, comma-separated.", valueName: "ports"))
  var midiConnect: String?

  @Flag(
    help: """
      With --jack, join (or start) an Ableton Link session on the local network: play on its tempo and beats, a bar \
      the quantum; tempo keys, play and pause go to every peer. Only in a build with the AbletonLink trait (GPL).
      """)
  var link = false

  @Option(
    help: ArgumentHelp(
      "JACK input ports to connect the click to, comma-separated; 'none' for none. Default: the server's"
        + " physical playback ports.", valueName: "ports"))
  var connect: String?

  func validate() throws {
    if !jack, connect != nil || clientName != "metronome" || followsTransport || midiClock || midiConnect != nil || link
    {
      throw ValidationError(
        "--connect, --client-name, --follow-transport, --timebase-master, --midi-clock and --link are for a JACK client:"
          + " add --jack")
    }
    if link, followsTransport {
      throw ValidationError("--link and the JACK transport would each place the beats: choose one")
    }
    #if !AbletonLink
    if link {
      throw ValidationError(
        "this metronome was built without Ableton Link: build it with scripts/install --link (the binary is then GPL)")
    }
    #endif
    if midiConnect != nil, !midiClock {
      throw ValidationError("--midi-connect connects the MIDI clock: add --midi-clock")
    }
  }

  /// Whether the JACK transport starts and places the beats.
  private var followsTransport: Bool { followTransport || timebaseMaster }

  /// `settings` as the transport or the Link session would have them: either starts the beats;
  /// a transport's master plays in whatever meter it likes.
  func adapt(_ settings: inout PlaybackSettings) {
    if followsTransport || link { settings.startsPlaying = false }
    if followsTransport { settings.cap = NumeratorCap(atLeast: NumeratorCap.ceiling) }
  }

  /// Joins the JACK server as a client of its own, connected as `--connect` says, at the rate
  /// of `settings`.
  func open(_ settings: PlaybackSettings) throws -> JACKSink {
    let connections = connect.map { $0 == "none" ? [] : $0.split(separator: ",").map(String.init) }
    let server: JACKSink
    do {
      server = try JACKSink(clientName: clientName, connections: connections)
    } catch {
      throw RuntimeError("\(error)")
    }
    guard server.sampleRate == settings.sampleRate else {
      server.stop()
      throw RuntimeError(
        "the JACK server runs at \(server.sampleRate.hz) Hz: give --rate \(server.sampleRate.hz), or start it at \(settings.sampleRate.hz)"
      )
    }
    return server
  }

  /// Wires `engine` to `server` as the options say: MIDI clock, following the transport, being its
  /// timebase master, following a Link session; returns what the display says of the sync, if
  /// anything.
  func connect(_ engine: ClickEngine, to server: JACKSink) throws -> (@Sendable () -> String)? {
    do {
      if midiClock { try sendMIDIClock(of: engine, through: server) }
      #if AbletonLink
      if link { return try followLink(with: engine, through: server) }
      #endif
      guard followsTransport else { return nil }
      follow(server, with: engine)
      if timebaseMaster {
        let viewModel = engine.viewModel
        let rate = server.sampleRate
        try server.becomeTimebaseMaster { frame in
          let state = viewModel.currentState
          return TimebaseMaster.position(atFrame: frame, tempo: state.tempo, meter: state.meter, sampleRate: rate)
        }
      }
      return nil
    } catch {
      server.stop()
      throw RuntimeError("\(error)")
    }
  }

  /// Sends MIDI clock for the beats of each period `engine` renders on `server`'s MIDI port.
  private func sendMIDIClock(of engine: ClickEngine, through server: JACKSink) throws {
    try server.addMIDIOutput(connections: midiConnect.map { $0.split(separator: ",").map(String.init) } ?? [])
    var clock = MIDIClock(sampleRate: server.sampleRate)
    let viewModel = engine.viewModel
    engine.afterEachPeriod = { [unowned engine] start, frames in
      clock.messages(
        from: start, frames: frames, beats: engine.renderer.beatsInLastPeriod,
        isPlaying: viewModel.currentState.isPlaying
      ) { frame, message in
        let bytes = message.bytes
        server.sendMIDI((bytes.0, bytes.1, bytes.2), count: bytes.count, atOffset: Int(frame - start))
      }
    }
  }

  /// Reads `server`'s transport before each period `engine` renders, and has its view model follow it.
  private func follow(_ server: JACKSink, with engine: ClickEngine) {
    var follower = TransportFollower(sampleRate: server.sampleRate)
    let viewModel = engine.viewModel
    engine.beforeEachPeriod = { cycleStart in
      let state = viewModel.currentState
      if let change = follower.follow(server.transport(), atFrame: cycleStart, tempo: state.tempo, meter: state.meter) {
        viewModel.actions.send(.follow(change))
      }
    }
  }

  #if AbletonLink
  /// Joins a Link session and has `engine`'s view model follow it, each cycle read at the
  /// moment `server` will play it; returns the session's peers as the display says them.
  private func followLink(with engine: ClickEngine, through server: JACKSink) throws -> @Sendable () -> String {
    guard let session = AbletonLinkSession(tempo: engine.settings.tempo) else {
      throw RuntimeError("Ableton Link would not start: is the loopback interface up?")
    }
    var follower = LinkFollower(sampleRate: server.sampleRate, startsPlaying: true)
    let viewModel = engine.viewModel
    engine.beforeEachPeriod = { cycleStart in
      follower.follow(
        session, atFrame: cycleStart, heardAtMicros: session.micros + server.microsUntilCycleIsHeard(),
        viewModel: viewModel)
    }
    return { "Link · \(session.peers) peer\(session.peers == 1 ? "" : "s")" }
  }
  #endif
}
