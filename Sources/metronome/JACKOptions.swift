import ArgumentParser
import JACKOutput
import MetronomeCore
import MetronomeEngine

#if AbletonLink
import LinkSync
#endif

/// `--jack` and what goes with it: the client's name and connections, following the transport or
/// being its timebase master, MIDI clock followed, and Ableton Link; and the wiring of each to
/// the engine.
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
      With --jack, follow MIDI clock received on a JACK MIDI port, midi_in: play from its Start or Continue (at its \
      Song Position) to its Stop, on its ticks, at the tempo they beat.
      """)
  var followMIDIClock = false

  @Option(
    help: ArgumentHelp("JACK MIDI output ports to connect to midi_in, comma-separated.", valueName: "ports"))
  var midiClockFrom: String?

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
    if !jack,
      connect != nil || clientName != "metronome" || midiClockFrom != nil || !clocks.isEmpty
    {
      throw ValidationError(
        "--connect, --client-name, --follow-transport, --timebase-master, --follow-midi-clock and --link"
          + " are for a JACK client: add --jack")
    }
    if clocks.count > 1 {
      throw ValidationError("\(clocks.joined(separator: " and ")) would each place the beats: choose one")
    }
    if midiClockFrom != nil, !followMIDIClock {
      throw ValidationError("--midi-clock-from connects the MIDI clock followed: add --follow-midi-clock")
    }
    #if !AbletonLink
    if link {
      throw ValidationError(
        "this metronome was built without Ableton Link: build it with scripts/install --link (the binary is then GPL)")
    }
    #endif
  }

  /// Whether the JACK transport starts and places the beats.
  private var followsTransport: Bool { followTransport || timebaseMaster }

  /// The outside clocks asked to start and place the beats.
  private var clocks: [String] {
    [(followsTransport, "the JACK transport"), (followMIDIClock, "--follow-midi-clock"), (link, "--link")]
      .filter(\.0).map(\.1)
  }

  /// `settings` as the clock that starts the beats would have them; a transport's master plays in
  /// whatever meter it likes.
  func adapt(_ settings: inout PlaybackSettings) {
    if !clocks.isEmpty { settings.startsPlaying = false }
    if followsTransport { settings.cap = NumeratorCap(atLeast: NumeratorCap.ceiling) }
  }

  /// Joins the JACK server as a client of its own, connected as `--connect` says, at the rate
  /// of `settings`.
  func open(_ settings: PlaybackSettings) throws -> JACKSink {
    let connections = connect.map { $0 == "none" ? [] : Self.ports($0) }
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

  /// Wires `engine` to `server` as the options say: following a Link session,
  /// MIDI clock or the transport, being its timebase master; returns what the display says of the
  /// sync, if anything.
  func connect(_ engine: ClickEngine, to server: JACKSink) throws -> (@Sendable () -> String)? {
    do {
      #if AbletonLink
      if link { return try followLink(with: engine, through: server) }
      #endif
      if followMIDIClock { try followMIDIClock(with: engine, through: server) }
      guard followsTransport else { return nil }
      var follower = TransportFollower(sampleRate: server.sampleRate)
      engine.follow { follower.follow(server.transport(), atFrame: $0, tempo: $1, meter: $2) }
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

  /// Follows the MIDI clock `server`'s port `midi_in` receives, from the ports `--midi-clock-from`
  /// names.
  private func followMIDIClock(with engine: ClickEngine, through server: JACKSink) throws {
    try server.addMIDIInput(connections: Self.ports(midiClockFrom))
    var follower = MIDIClockFollower(sampleRate: server.sampleRate)
    engine.follow { cycleStart, tempo, meter in
      server.receiveMIDI { offset, status, first, second in
        guard let message = MIDIClock.Message(status, first, second) else { return }
        follower.receive(message, atFrame: cycleStart + Int64(offset))
      }
      return follower.follow(cycleStart: cycleStart, tempo: tempo, meter: meter)
    }
  }

  /// The ports in a comma-separated list; none for nil.
  static func ports(_ list: String?) -> [String] { list?.split(separator: ",").map(String.init) ?? [] }

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
