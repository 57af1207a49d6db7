import MetronomeCore

/// klick's OSC namespace, as klick 0.12.2 answers it: which messages it takes, with which type
/// tags (numbers coerced into one another as liblo does), what each asks of the metronome, and
/// which replies go where.
///
/// Queries answer to the address given as their optional string argument, else to the sender;
/// setters answer with the value in force to the registered clients only; errors are lines for
/// standard error, never replies. It holds only the registered clients and the last tempo it told
/// them, so that it runs the same under virtual time in tests and on the session's queue live.
public struct KlickNamespace: Sendable {
  /// Where the messages go: the registered clients, in the order they registered.
  public private(set) var clients: [OSCEndpoint] = []
  private var toldCurrentTempo: Double?

  /// A namespace with no client registered.
  public init() {}

  /// The query answered with `KlickState.availablePorts`, which only it needs listed.
  public static let availablePortsPath = "/klick/config/get_available_ports"

  /// What handling one message gave: replies, and lines for standard error.
  public struct Outcome: Equatable, Sendable {
    /// The replies, in the order they are sent.
    public var replies: [OSCReply] = []
    /// Lines for standard error, such as `unknown message: /klick/bogus ,i`.
    public var errors: [String] = []
  }

  /// Handles `message` from `sender` with the metronome in `state`; `perform` carries out a
  /// request and returns the state after it.
  public mutating func handle(
    _ message: OSCMessage, from sender: OSCEndpoint, state: KlickState, perform: (KlickRequest) -> KlickState
  ) -> Outcome {
    var outcome = Outcome()
    guard let method = Self.methods[message.path], let arguments = message.arguments(matching: method.typeSpecs)
    else {
      outcome.errors.append("unknown message: \(message.path) ,\(message.typeTags)")
      return outcome
    }
    if let kind = method.kind, kind != state.kind {
      outcome.errors.append("\(message.path): function not available for current metronome type")
      return outcome
    }
    let replyTo: OSCEndpoint?
    if case .string(let address)? = arguments.first, method.isQuery || method.isRegistration {
      guard let endpoint = OSCCodec.endpoint(address) else {
        outcome.errors.append("\(message.path): '\(address)' is not an address: write osc.udp://HOST:PORT/ or a port")
        return outcome
      }
      replyTo = endpoint
    } else {
      replyTo = sender
    }
    switch method.action {
    case .query(let parts):
      outcome.replies = (parts ?? Self.everything(of: state.kind)).flatMap { Self.report($0, of: state) }
        .map { OSCReply($0, to: [replyTo ?? sender]) }
    case .ping:
      outcome.replies = [OSCReply(OSCMessage("/klick/pong"), to: [replyTo ?? sender])]
    case .check:
      outcome.replies = [OSCReply(OSCMessage("/klick/ready"), to: [replyTo ?? sender])]
    case .register:
      if let replyTo, !clients.contains(replyTo) { clients.append(replyTo) }
    case .unregister:
      clients.removeAll { $0 == replyTo }
    case .request(let build, let answer):
      guard let request = build(arguments), Self.fits(request, state) else {
        outcome.errors.append(Self.rejection(of: message, arguments, state: state))
        return outcome
      }
      let after = perform(request)
      if let answer, !clients.isEmpty {
        outcome.replies = Self.report(answer, of: after).map { OSCReply($0, to: clients) }
      }
    }
    return outcome
  }

  /// The tempo heard now, for the clients, when it changed since they were last told: klick
  /// checks every 10 ms.
  public mutating func currentTempoChange(in state: KlickState) -> [OSCReply] {
    guard state.kind == .simple, toldCurrentTempo != state.currentTempo else { return [] }
    toldCurrentTempo = state.currentTempo
    guard !clients.isEmpty else { return [] }
    return [OSCReply(OSCMessage("/klick/simple/current_tempo", [.float32(Float(state.currentTempo))]), to: clients)]
  }

  /// Whether `request` fits the metronome in `state`: klick takes a pattern only of as many beats
  /// as the bar has.
  private static func fits(_ request: KlickRequest, _ state: KlickState) -> Bool {
    guard case .setPattern(let pattern?, _) = request else { return true }
    return pattern.count == state.meter.numerator
  }

  /// The line a setter's arguments that the metronome cannot take are refused with.
  private static func rejection(of message: OSCMessage, _ arguments: [OSCArgument], state: KlickState) -> String {
    switch (message.path, arguments.first) {
    case ("/klick/simple/set_pattern", .string(let text)?) where (try? AccentPattern(parsing: text)) != nil:
      "\(message.path): pattern length doesn't match number of beats"
    case ("/klick/simple/set_pattern", .string(let text)?):
      "\(message.path): invalid pattern '\(text)': write X (strong), x (normal) and . (silent), one a beat"
    case ("/klick/simple/set_meter", _):
      "\(message.path): invalid meter \(arguments.map(\.description).joined(separator: "/")):"
        + " the note value is 1 to 64, a power of two, and a bar has 1 to \(NumeratorCap.ceiling) beats"
    default:
      "\(message.path): invalid argument \(arguments.map(\.description).joined(separator: " "))"
    }
  }

  // MARK: - The table

  /// What a part of the state reports as.
  private enum Report {
    case sound, soundVolume, soundPitch, volume, kind, active, tempo, tempoIncrement, tempoStart, tempoLimit
    case currentTempo, meter, pattern, mapFile, preroll, tempoMultiplier, availablePorts
  }

  private enum Action: Sendable {
    /// Reports these parts of the state; nil: everything the kind playing has.
    case query([Report]?)
    case ping, check, register, unregister
    /// A setter: the request its arguments make (nil: refused), and what it answers with.
    case request(@Sendable ([OSCArgument]) -> KlickRequest?, answer: Report?)
  }

  private struct Method: Sendable {
    let typeSpecs: [String]
    let kind: KlickState.Kind?
    let action: Action

    var isQuery: Bool {
      switch action {
      case .query, .ping, .check: true
      default: false
      }
    }
    var isRegistration: Bool {
      switch action {
      case .register, .unregister: true
      default: false
      }
    }
  }

  private static let config: [Report] = [.sound, .soundVolume, .soundPitch, .volume]
  private static let metro: [Report] = [.kind, .active]
  private static let simple: [Report] = [
    .tempo, .tempoIncrement, .tempoStart, .tempoLimit, .currentTempo, .meter, .pattern,
  ]
  private static let map: [Report] = [.mapFile, .preroll, .tempoMultiplier]

  /// What `/klick/query` reports while `kind` plays: the JACK metronome has nothing of its own.
  private static func everything(of kind: KlickState.Kind) -> [Report] {
    config + metro + (kind == .simple ? simple : kind == .map ? map : [])
  }

  private static func query(_ reports: [Report], kind: KlickState.Kind? = nil) -> Method {
    Method(typeSpecs: ["", "s"], kind: kind, action: .query(reports))
  }

  private static func setter(
    _ spec: String, kind: KlickState.Kind? = nil, answer: Report? = nil,
    _ build: @escaping @Sendable ([OSCArgument]) -> KlickRequest?
  ) -> Method {
    Method(typeSpecs: [spec], kind: kind, action: .request(build, answer: answer))
  }

  private static let methods: [String: Method] = [
    "/klick/ping": Method(typeSpecs: ["", "s"], kind: nil, action: .ping),
    "/klick/check": Method(typeSpecs: ["", "s"], kind: nil, action: .check),
    "/klick/register_client": Method(typeSpecs: ["", "s"], kind: nil, action: .register),
    "/klick/unregister_client": Method(typeSpecs: ["", "s"], kind: nil, action: .unregister),
    "/klick/query": Method(typeSpecs: ["", "s"], kind: nil, action: .query(nil)),
    "/klick/quit": setter("") { _ in .quit },
    "/klick/config/query": query(config),
    "/klick/config/set_sound": Method(
      typeSpecs: ["i", "ss"], kind: nil,
      action: .request(
        { arguments in
          switch (arguments.first, arguments.last) {
          case (.int32(let number)?, _): .setSound(.builtIn(number))
          case (.string(let emphasis)?, .string(let normal)?): .setSound(.files(emphasis: emphasis, normal: normal))
          default: nil
          }
        }, answer: .sound)),
    "/klick/config/set_sound_volume": setter("ff", answer: .soundVolume) { .setSoundVolume(pair($0)) },
    "/klick/config/set_sound_pitch": setter("ff", answer: .soundPitch) { .setSoundPitch(pair($0)) },
    "/klick/config/set_volume": setter("f", answer: .volume) { .setVolume(float($0[0])) },
    "/klick/config/connect": Method(
      typeSpecs: (1...16).map { String(repeating: "s", count: $0) }, kind: nil,
      action: .request({ .connect(ports: $0.compactMap(string)) }, answer: nil)),
    availablePortsPath: query([.availablePorts]),
    "/klick/config/autoconnect": setter("") { _ in .autoconnect },
    "/klick/config/disconnect_all": setter("") { _ in .disconnectAll },
    "/klick/metro/query": query(metro),
    "/klick/metro/set_type": setter("s", answer: .kind) { arguments in
      string(arguments[0]).flatMap(KlickState.Kind.init(rawValue:)).map(KlickRequest.setKind)
    },
    "/klick/metro/start": setter("", answer: .active) { _ in .start },
    "/klick/metro/stop": setter("", answer: .active) { _ in .stop },
    "/klick/simple/query": query(simple, kind: .simple),
    "/klick/simple/set_tempo": setter("f", kind: .simple, answer: .tempo) { .setTempo(double($0[0])) },
    "/klick/simple/set_tempo_increment": setter("f", kind: .simple, answer: .tempoIncrement) {
      .setTempoIncrement(double($0[0]))
    },
    "/klick/simple/set_tempo_start": setter("f", kind: .simple, answer: .tempoStart) { .setTempoStart(double($0[0])) },
    "/klick/simple/set_tempo_limit": setter("f", kind: .simple, answer: .tempoLimit) { .setTempoLimit(double($0[0])) },
    "/klick/simple/set_meter": setter("ii", kind: .simple, answer: .meter) { arguments in
      guard case .int32(let beats) = arguments[0], case .int32(let value) = arguments[1],
        let meter = try? Meter(Int(beats), Int(value), cap: .widest)
      else { return nil }
      return .setMeter(meter)
    },
    "/klick/simple/set_pattern": setter("s", kind: .simple, answer: .pattern) { arguments in
      guard let text = string(arguments[0]) else { return nil }
      if text.isEmpty { return .setPattern(nil, written: "") }
      return (try? AccentPattern(parsing: text)).map { .setPattern($0, written: text) }
    },
    "/klick/simple/tap": Method(
      typeSpecs: ["", "d"], kind: .simple,
      action: .request({ .tap(seconds: $0.first.map(double)) }, answer: .tempo)),
    "/klick/map/query": query(map, kind: .map),
    "/klick/map/load_file": setter("s", kind: .map, answer: .mapFile) { string($0[0]).map { .loadMap(path: $0) } },
    "/klick/map/set_preroll": setter("i", kind: .map, answer: .preroll) { arguments in
      guard case .int32(let bars) = arguments[0] else { return nil }
      return .setPreroll(bars)
    },
    "/klick/map/set_tempo_multiplier": setter("f", kind: .map, answer: .tempoMultiplier) {
      .setTempoMultiplier(float($0[0]))
    },
    "/klick/jack/query": query([], kind: .jack),
  ]

  /// The messages `report` gives for `state`; `/klick/query` reports everything the kind playing has.
  private static func report(_ report: Report, of state: KlickState) -> [OSCMessage] {
    switch report {
    case .sound:
      switch state.sound {
      case .builtIn(let number): [OSCMessage("/klick/config/sound", [.int32(number)])]
      case .files(let emphasis, let normal): [OSCMessage("/klick/config/sound", [.string(emphasis), .string(normal)])]
      }
    case .soundVolume:
      [
        OSCMessage(
          "/klick/config/sound_volume", [.float32(state.soundVolume.emphasis), .float32(state.soundVolume.normal)])
      ]
    case .soundPitch:
      [
        OSCMessage(
          "/klick/config/sound_pitch", [.float32(state.soundPitch.emphasis), .float32(state.soundPitch.normal)])
      ]
    case .volume: [OSCMessage("/klick/config/volume", [.float32(state.volume)])]
    case .kind: [OSCMessage("/klick/metro/type", [.string(state.kind.rawValue)])]
    case .active: [OSCMessage("/klick/metro/active", [.int32(state.isActive ? 1 : 0)])]
    case .tempo: [OSCMessage("/klick/simple/tempo", [.float32(Float(state.tempo))])]
    case .tempoIncrement: [OSCMessage("/klick/simple/tempo_increment", [.float32(Float(state.tempoIncrement))])]
    case .tempoStart: [OSCMessage("/klick/simple/tempo_start", [.float32(Float(state.tempoStart))])]
    case .tempoLimit: [OSCMessage("/klick/simple/tempo_limit", [.float32(Float(state.tempoLimit))])]
    case .currentTempo: [OSCMessage("/klick/simple/current_tempo", [.float32(Float(state.currentTempo))])]
    case .meter:
      [
        OSCMessage(
          "/klick/simple/meter", [.int32(Int32(state.meter.numerator)), .int32(Int32(state.meter.denominator))])
      ]
    case .pattern: [OSCMessage("/klick/simple/pattern", [.string(state.pattern)])]
    case .mapFile: [OSCMessage("/klick/map/filename", [.string(state.mapFile)])]
    case .preroll: [OSCMessage("/klick/map/preroll", [.int32(state.preroll)])]
    case .tempoMultiplier: [OSCMessage("/klick/map/tempo_multiplier", [.float32(state.tempoMultiplier)])]
    case .availablePorts: [OSCMessage("/klick/config/available_ports", state.availablePorts.map(OSCArgument.string))]
    }
  }
}

private func double(_ argument: OSCArgument) -> Double {
  switch argument {
  case .float32(let value): Double(value)
  case .double(let value): value
  default: .nan
  }
}

private func float(_ argument: OSCArgument) -> Float { Float(double(argument)) }

private func string(_ argument: OSCArgument) -> String? {
  if case .string(let text) = argument { return text }
  return nil
}

private func pair(_ arguments: [OSCArgument]) -> KlickState.SoundPair {
  KlickState.SoundPair(emphasis: float(arguments[0]), normal: float(arguments[1]))
}
