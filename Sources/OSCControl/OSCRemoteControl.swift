import MetronomeCore
import MetronomeSession
import MetronomeViewModel
import TerminalUI

/// klick's OSC remote control of a running metronome: packets in, session inputs out to the
/// session, replies with the state it is then in.
///
/// It runs on the session's main queue, where keys are handled too, so a message and a key never
/// race; the socket (or a test) hands it each packet with its sender, and it hands each reply to
/// `send`. A bad packet or message is one line for `log`, never a reply, as klick does.
@MainActor
public final class OSCRemoteControl {
  private let session: any SessionInputReceiver
  private let viewModel: MetronomeViewModel
  private let fixed: KlickState
  private let connections: (any OutputConnections)?
  private let send: ([UInt8], OSCEndpoint) -> Void
  private let log: (String) -> Void
  private var namespace = KlickNamespace()

  /// A remote control feeding `session`, whose state `viewModel` holds; `fixed` holds what the
  /// run set and OSC does not change (its kind of metronome, volume and map), `connections` the
  /// output's JACK port, if it has one.
  public init(
    session: any SessionInputReceiver, viewModel: MetronomeViewModel, fixed: KlickState,
    connections: (any OutputConnections)? = nil, send: @escaping ([UInt8], OSCEndpoint) -> Void,
    log: @escaping (String) -> Void
  ) {
    self.session = session
    self.viewModel = viewModel
    self.fixed = fixed
    self.connections = connections
    self.send = send
    self.log = log
  }

  /// The metronome's state in klick's terms now.
  public var state: KlickState { state(listingPorts: false) }

  /// The metronome's state in klick's terms now, with the ports the output may connect to if
  /// `listingPorts`.
  private func state(listingPorts: Bool) -> KlickState {
    let current = viewModel.currentState
    var state = fixed
    state.isActive = current.isPlaying
    state.tempo = current.tempo.bpm
    state.currentTempo = current.isPlaying ? current.tempo.bpm : 0
    state.meter = current.meter
    state.pattern = current.requestedPattern?.description ?? ""
    state.tempoMultiplier = Float(current.settings.programme.multiplier)
    state.volume = Float(Double(fixed.volume) * current.gains.overall)
    state.soundVolume = KlickState.SoundPair(
      emphasis: Float(current.gains.accented), normal: Float(current.gains.unaccented))
    if listingPorts { state.availablePorts = connections?.availablePorts() ?? [] }
    return state
  }

  /// Acts on `packet` from `sender`: each message it holds, in order.
  public func received(_ packet: [UInt8], from sender: OSCEndpoint) {
    let messages: [OSCMessage]
    do {
      messages = try OSCCodec.messages(in: packet)
    } catch {
      log("OSC: ignored a packet of \(packet.count) bytes from \(sender.host):\(sender.port): \(error)")
      return
    }
    for message in messages {
      let outcome =
        message.path.hasPrefix(MetronomeNamespace.prefix)
        ? MetronomeNamespace.handle(
          message, from: sender, clients: namespace.clients, state: viewModel.currentState
        ) { input in
          session.receive(input)
          return viewModel.currentState
        }
        : namespace.handle(
          message, from: sender, state: state(listingPorts: message.path == KlickNamespace.availablePortsPath)
        ) { request in
          perform(request, for: message.path)
          return state
        }
      outcome.errors.forEach(log)
      outcome.replies.forEach(deliver)
    }
  }

  /// Tells the registered clients the tempo heard, when it changed: call every 10 ms or so.
  public func tellChanges() { namespace.currentTempoChange(in: state).forEach(deliver) }

  /// Tells the registered clients that `beat` is heard now, which klick never does:
  /// `/metronome/beat ,iiissfhd` with its bar, beat and click in the beat (from 1, 1 and 0), its
  /// voice (`beats` or `polyrhythm`), its level (`strong`, `normal`, `weak`, `silent`), the tempo,
  /// and its frame and time in seconds from the start of the run.
  public func heard(_ beat: Beat) {
    guard !namespace.clients.isEmpty else { return }
    let message = OSCMessage(
      "/metronome/beat",
      [
        .int32(Int32(clamping: beat.bar)), .int32(Int32(clamping: beat.beatInBar)),
        .int32(Int32(clamping: beat.subdivision)), .string(beat.isPolyrhythm ? "polyrhythm" : "beats"),
        .string(beat.level.name), .float32(Float(beat.tempo.bpm)), .int64(beat.frame), .double(beat.seconds),
      ])
    deliver(OSCReply(message, to: namespace.clients))
  }

  /// Sends `/klick/ready` to `address`, as klick's `-R` does at start.
  public func announceReady(to address: OSCEndpoint) {
    deliver(OSCReply(OSCMessage("/klick/ready"), to: [address]))
  }

  /// Calls `body` with the output's connections; without any, says that `path` needs JACK.
  private func withConnections(for path: String, _ body: (any OutputConnections) -> Void) {
    guard let connections else { return log("OSC: \(path): only a run with --jack has a port to connect") }
    body(connections)
  }

  private func deliver(_ reply: OSCReply) {
    let packet = OSCCodec.packet(for: reply.message)
    for destination in reply.destinations { send(packet, destination) }
  }

  /// Carries out `request`: what this metronome does yet, while the rest says so and keeps the
  /// value in force.
  private func perform(_ request: KlickRequest, for path: String) {
    let current = viewModel.currentState
    let playing = current.isPlaying
    var gains = current.gains
    switch request {
    case .setTempo(let bpm): session.receive(.action(.setTempo(bpm)))
    case .setMeter(let meter):
      // klick forgets the pattern when the beats of a bar change.
      if meter.numerator != viewModel.currentState.meter.numerator { session.receive(.action(.setPattern(nil))) }
      session.receive(.action(.setMeter(meter)))
    case .setPattern(let pattern, _): session.receive(.action(.setPattern(pattern)))
    case .tap(nil): session.receive(.command(.tapTempo))
    case .tap(let seconds?): session.receive(.action(.tapTempo(atSeconds: seconds)))
    case .start: if !playing { session.receive(.command(.togglePlaying)) }
    case .stop: if playing { session.receive(.command(.togglePlaying)) }
    case .quit: session.receive(.command(.quit))
    case .setVolume(let volume) where fixed.volume > 0:
      // The run's own volume is in its sounds; OSC scales them.
      gains.overall = Double(volume) / Double(fixed.volume)
      session.receive(.action(.setGains(gains)))
    case .setVolume:
      log("OSC: \(path): the run plays at volume 0, which nothing scales: start it with a --volume above 0")
    case .setSoundVolume(let pair):
      (gains.accented, gains.unaccented) = (Double(pair.emphasis), Double(pair.normal))
      session.receive(.action(.setGains(gains)))
    case .connect(let ports):
      // Each port that cannot be connected is a line, as in klick.
      withConnections(for: path) { connections in
        for port in ports {
          do { try connections.connect(to: port) } catch { log("OSC: \(path): \(error)") }
        }
      }
    case .autoconnect: withConnections(for: path) { $0.autoconnect() }
    case .disconnectAll: withConnections(for: path) { $0.disconnectAll() }
    case .setTempoMultiplier(let multiplier):
      // While a map plays, its tempo is its starting tempo times the multiplier.
      current.programme.mapStartBPM.map { session.receive(.action(.setTempo($0 * Double(multiplier)))) }
    default: log("OSC: \(path) is not supported yet; what is in force stays")
    }
  }
}
