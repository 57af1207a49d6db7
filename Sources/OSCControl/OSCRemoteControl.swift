import MetronomeControl
import MetronomeCore
import TerminalUI

/// klick's OSC remote control of a running metronome: packets in, session inputs out to the
/// session, replies with the state it is then in; a watcher of the session, which tells its
/// clients each beat as it is heard.
///
/// It runs on the session's main queue, where keys are handled too, so a message and a key never
/// race; the socket (or a test) hands it each packet with its sender and the session it is for,
/// and it hands each reply to `send`. It reads the state from the store and the sound from the
/// run, keeping none of either. A bad packet or message is one line for `log`, never a reply, as
/// klick does.
@MainActor
public final class OSCRemoteControl: SessionObserver {
  private let store: any MetronomeStore
  private let fixed: KlickState
  private let connections: (any OutputConnections)?
  private let sounds: (any ClickSounds)?
  private let loadMap: ((String) throws -> TempoMap)?
  private let tempoFollows: String?
  /// The tempo of the last beat heard since play started, with the tempo set when it was heard:
  /// a speed trainer ramps it away from the tempo set, and a tempo set anew is in force at once.
  private var heardTempo: (tempo: Tempo, set: Tempo)?
  private let send: ([UInt8], OSCEndpoint) -> Void
  private let log: (String) -> Void
  private var namespace = KlickNamespace()

  /// A remote control of the metronome whose state `store` holds; `fixed` holds what the run set
  /// (following the JACK transport or not, its volume, the file of the map it started with),
  /// `connections` the output's JACK port, if it has one, `sounds` the click's sound, if it can
  /// change; `loadMap` reads the map in a file, throwing why it cannot; `tempoFollows` names the
  /// outside clock whose tempo the run follows and no setter changes (nil: the tempo is the run's,
  /// or a Link session's, which takes one from any peer).
  public init(
    store: any MetronomeStore, fixed: KlickState, connections: (any OutputConnections)? = nil,
    sounds: (any ClickSounds)? = nil, loadMap: ((String) throws -> TempoMap)? = nil, tempoFollows: String? = nil,
    send: @escaping ([UInt8], OSCEndpoint) -> Void, log: @escaping (String) -> Void
  ) {
    self.store = store
    self.fixed = fixed
    self.connections = connections
    self.sounds = sounds
    self.loadMap = loadMap
    self.tempoFollows = tempoFollows
    self.send = send
    self.log = log
  }

  /// The metronome's state in klick's terms now.
  public var state: KlickState { state(listingPorts: false) }

  /// The metronome's state in klick's terms now, with the ports the output may connect to if
  /// `listingPorts`.
  private func state(listingPorts: Bool) -> KlickState {
    let current = store.currentState
    var state = fixed
    if fixed.kind != .jack { state.kind = current.programme.map == nil ? .simple : .map }
    state.mapFile = current.loadedMap?.file ?? fixed.mapFile
    if case .bars(let bars)? = current.programme.countIn { state.preroll = Int32(clamping: bars) }
    state.isActive = current.isPlaying
    state.tempo = current.tempo.bpm
    let heard = heardTempo.flatMap { $0.set == current.tempo ? $0.tempo : nil }
    state.currentTempo = current.isPlaying ? (heard ?? current.tempo).bpm : 0
    let trainer = current.programme.speedTrainer
    (state.tempoIncrement, state.tempoStart, state.tempoLimit) = (trainer.increment, trainer.start, trainer.limit)
    state.meter = current.meter
    state.pattern = current.requestedPattern?.description ?? ""
    state.tempoMultiplier = Float(current.settings.programme.multiplier)
    state.volume = Float(Double(fixed.volume) * current.gains.overall)
    if let sounds { (state.sound, state.soundPitch) = sounds.inForce }
    state.soundVolume = KlickState.SoundPair(
      emphasis: Float(current.gains.accented), normal: Float(current.gains.unaccented))
    if listingPorts { state.availablePorts = connections?.availablePorts() ?? [] }
    return state
  }

  /// Acts on `packet` from `sender`: each message it holds, in order, its inputs handed to `session`.
  public func received(_ packet: [UInt8], from sender: OSCEndpoint, into session: any SessionInputReceiver) {
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
          message, from: sender, clients: namespace.clients, state: store.currentState
        ) { input in
          session.receive(input)
          return store.currentState
        }
        : namespace.handle(
          message, from: sender, state: state(listingPorts: message.path == KlickNamespace.availablePortsPath)
        ) { request in
          inputs(for: request, path: message.path).forEach(session.receive)
          return state
        }
      outcome.errors.forEach(log)
      outcome.replies.forEach(deliver)
    }
  }

  /// Tells the registered clients the tempo heard, when it changed: call every 10 ms or so.
  public func tellChanges() {
    if !store.currentState.isPlaying { heardTempo = nil }
    namespace.currentTempoChange(in: state).forEach(deliver)
  }

  /// Tells the registered clients that `beat` is heard now, which klick never does:
  /// `/metronome/beat ,iiissfhd` with its bar, beat and click in the beat (from 1, 1 and 0), its
  /// voice (`beats` or `polyrhythm`), its level (`strong`, `normal`, `weak`, `silent`), the tempo,
  /// and its frame and time in seconds from the start of the run.
  public func heard(_ beat: Beat) {
    if beat.subdivision == 0, !beat.isPolyrhythm { heardTempo = (beat.tempo, store.currentState.tempo) }
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

  /// Plays `sound` at `pitch` from the next period; what cannot be played is a line, and the
  /// sound in force stays.
  private func play(_ sound: KlickState.Sound?, at pitch: KlickState.SoundPair?, for path: String) {
    guard let sounds else { return log("OSC: \(path): not available in this run; what is in force stays") }
    let inForce = sounds.inForce
    do {
      try sounds.play(sound ?? inForce.sound, pitch: pitch ?? inForce.pitch)
    } catch {
      log("OSC: \(path): \(error)")
    }
  }

  /// What makes `kind` the metronome that plays when next started, stopping, as klick's
  /// `set_type` does: the steady tempo, or the map last loaded; without one, as klick does, a
  /// map of the tempo, meter and pattern in force, for ever.
  private func inputs(playing kind: KlickState.Kind, for path: String) -> [SessionInput] {
    switch kind {
    case _ where fixed.kind == .jack || kind == .jack:
      log("OSC: \(path): only --follow-transport follows the JACK transport, from the start of the run")
      return []
    case .map:
      let current = store.currentState
      let steady = TempoMap.Section(
        bars: nil, meter: current.meter, tempo: .steady(current.tempo.bpm), pattern: current.requestedPattern)
      return [.action(.playMap(current.loadedMap?.map ?? TempoMap(sections: [steady])))]
    default: return [.action(.playMap(nil))]
    }
  }

  /// What reads the map in `file` and stops to play it from its start, as klick's `load_file` does.
  private func inputs(loading file: String, for path: String) -> [SessionInput] {
    guard let loadMap else {
      log("OSC: \(path): not available in this run; what is in force stays")
      return []
    }
    do {
      return [.action(.loadMap(try loadMap(file), file: file))]
    } catch {
      log("OSC: \(path): \(error)")
      return []
    }
  }

  /// What sets klick's speed trainer, each value not given as it is.
  private func inputs(settingTrainer increment: Double? = nil, start: Double? = nil, limit: Double? = nil)
    -> [SessionInput]
  {
    let trainer = store.currentState.programme.speedTrainer
    let changed = SpeedTrainer(
      increment: increment ?? trainer.increment, start: start ?? trainer.start, limit: limit ?? trainer.limit)
    return [.action(.setSpeedTrainer(changed))]
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

  /// The inputs that carry out `request` on this metronome; what it cannot do, or does beside
  /// the state (the sound, the output's connections), is done here, and a line says what cannot
  /// be done, the value in force staying.
  private func inputs(for request: KlickRequest, path: String) -> [SessionInput] {
    if let clock = tempoFollows, request.setsTheTempo {
      log("OSC: \(path): the tempo follows \(clock); what is in force stays")
      return []
    }
    let current = store.currentState
    var gains = current.gains
    switch request {
    case .setTempo(let bpm): return [.action(.setTempo(bpm))]
    case .setMeter(let meter):
      // klick forgets the pattern when the beats of a bar change.
      let forgetsPattern: [SessionInput] = meter.numerator != current.meter.numerator ? [.action(.setPattern(nil))] : []
      return forgetsPattern + [.action(.setMeter(meter))]
    case .setPattern(let pattern, _): return [.action(.setPattern(pattern))]
    case .tap(nil): return [.command(.tapTempo)]
    case .tap(let seconds?): return [.action(.tapTempo(atSeconds: seconds))]
    case .start: return [.action(.setPlaying(true))]
    case .stop: return [.action(.setPlaying(false))]
    case .quit: return [.command(.quit)]
    case .setSound(let sound): play(sound, at: nil, for: path)
    case .setSoundPitch(let pitch): play(nil, at: pitch, for: path)
    case .setKind(let kind): return inputs(playing: kind, for: path)
    case .loadMap(let file): return inputs(loading: file, for: path)
    case .setPreroll(let bars) where bars == -1: return [.action(.setCountIn(nil))]
    case .setPreroll(let bars) where (0...CountIn.longestBars).contains(Int(bars)):
      return [.action(.setCountIn(.bars(Int(bars))))]
    case .setPreroll(let bars):
      log("OSC: \(path): preroll \(bars): -1 for none, 0 for two beats, or 1 to \(CountIn.longestBars) bars")
    case .setTempoIncrement(let increment): return inputs(settingTrainer: increment)
    case .setTempoStart(let start): return inputs(settingTrainer: nil, start: start)
    case .setTempoLimit(let limit): return inputs(settingTrainer: nil, limit: limit)
    case .setVolume(let volume) where fixed.volume > 0:
      // The run's own volume is in its sounds; OSC scales them.
      gains.overall = Double(volume) / Double(fixed.volume)
      return [.action(.setGains(gains))]
    case .setVolume:
      log("OSC: \(path): the run plays at volume 0, which nothing scales: start it with a --volume above 0")
    case .setSoundVolume(let pair):
      (gains.accented, gains.unaccented) = (Double(pair.emphasis), Double(pair.normal))
      return [.action(.setGains(gains))]
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
      return current.programme.mapStartBPM.map { [.action(.setTempo($0 * Double(multiplier)))] } ?? []
    }
    return []
  }
}
