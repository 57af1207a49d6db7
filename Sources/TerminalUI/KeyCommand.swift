/// What a key asks the metronome to do.
public enum KeyCommand: Hashable, Sendable {
  case togglePlaying
  case nudgeTempo(Double)
  case scaleTempo(Double)
  case tapTempo
  case stepNumerator(Int)
  case stepDenominator(Int)
  case cycleLevel(ofBeat: Int)
  case stepSubdivision(Int)
  case stepSwing(Double)
  case toggleMute
  case togglePolyrhythmMute
  case jumpSection(Int)
  case toggleSectionLoop
  case moveSong(Int)
  case reset
  case quit
}

/// The one set of keys: the display's help line, `--help`, the man page and key scripts all
/// come from this table.
public enum KeyBindings {
  /// A group of keys with one purpose, as the help lists it.
  public struct Binding: Sendable {
    /// The keys, and what each does.
    public let keys: [(Key, KeyCommand)]
    /// What the keys do, as the help says it.
    public let help: String
    /// How the help names the keys, when listing each would be too long.
    public let label: String?

    /// The keys as the help names them: the label, or each key in turn.
    public var shownKeys: String { label ?? keys.map { $0.0.description }.joined(separator: " ") }

    /// A binding of `keys`, named in the help by `label` or else each in turn.
    public init(keys: [(Key, KeyCommand)], label: String? = nil, help: String) {
      self.keys = keys
      self.label = label
      self.help = help
    }
  }

  /// Every binding, in the order the help shows them.
  public static let all: [Binding] = [
    Binding(keys: [(.character(" "), .togglePlaying)], help: "play/pause"),
    Binding(
      keys: [
        (.right, .nudgeTempo(1)), (.character("+"), .nudgeTempo(1)), (.left, .nudgeTempo(-1)),
        (.character("-"), .nudgeTempo(-1)),
      ], help: "tempo ±1"),
    Binding(keys: [(.up, .nudgeTempo(10)), (.down, .nudgeTempo(-10))], help: "tempo ±10"),
    Binding(keys: [(.character("*"), .scaleTempo(2)), (.character("/"), .scaleTempo(0.5))], help: "double/halve"),
    Binding(keys: [(.character("t"), .tapTempo)], help: "tap tempo"),
    Binding(
      keys: [(.character("]"), .stepNumerator(1)), (.character("["), .stepNumerator(-1))], help: "beats per bar ±1"),
    Binding(
      keys: [(.character("}"), .stepDenominator(1)), (.character("{"), .stepDenominator(-1))], help: "note value ×2/÷2"),
    Binding(
      keys: (1...9).map { (Key.character(Character(String($0))), KeyCommand.cycleLevel(ofBeat: $0)) },
      label: "1…9", help: "beat's level X→x→o→."),
    Binding(
      keys: [(.character("s"), .stepSubdivision(1)), (.character("S"), .stepSubdivision(-1))],
      help: "clicks per beat ±1"),
    Binding(
      keys: [(.character("w"), .stepSwing(1.0 / 12)), (.character("W"), .stepSwing(-1.0 / 12))], help: "swing ±"),
    Binding(keys: [(.character("m"), .toggleMute)], help: "mute"),
    Binding(keys: [(.character("p"), .togglePolyrhythmMute)], help: "mute the second voice"),
    // One short item, so that the help still fits a 30-column, 24-line terminal.
    Binding(
      keys: [
        (.character("n"), .jumpSection(1)), (.character("b"), .jumpSection(-1)), (.character("0"), .jumpSection(0)),
        (.character("l"), .toggleSectionLoop),
      ], label: "n b 0 l", help: "section ±1/top/loop"),
    Binding(keys: [(.character("N"), .moveSong(1)), (.character("B"), .moveSong(-1))], help: "song ±1"),
    Binding(keys: [(.character("r"), .reset)], help: "reset"),
    Binding(keys: [(.character("q"), .quit), (.escape, .quit)], help: "quit"),
  ]

  /// The command bound to `key`, if any.
  public static func command(for key: Key) -> KeyCommand? {
    all.lazy.flatMap(\.keys).first { $0.0 == key }?.1
  }

  /// Each binding as "Space play/pause", "→ + ← - tempo ±1": the display's help and `--help`.
  public static var helpItems: [String] {
    all.map { "\($0.shownKeys) \($0.help)" }
  }
}
