/// How strongly a beat sounds, written as klick writes its patterns (`X`, `x`, `.`) with `o` added
/// for a weak (ghost) beat.
public enum AccentLevel: Character, CaseIterable, Hashable, Sendable {
  /// Accented: a higher, louder click.
  case strong = "X"
  /// An ordinary click.
  case normal = "x"
  /// A quieter click, for a ghost beat or the inside of a group.
  case weak = "o"
  /// No sound: the beat is counted and shown, but not heard.
  case silent = "."

  /// The level of beat `beatInBar` (from 1) when no pattern says otherwise: beat one strong, the
  /// others normal.
  public static func standard(ofBeat beatInBar: Int) -> AccentLevel { beatInBar == 1 ? .strong : .normal }

  /// The next level in the order a key cycles through them: strong, normal, weak, silent, strong.
  public var next: AccentLevel {
    let all = Self.allCases
    guard let index = all.firstIndex(of: self) else { return self }
    return all[(index + 1) % all.count]
  }

  /// The word a line of text uses for it: `accent` and `regular` as before levels, then `weak`
  /// and `silent`.
  public var word: String {
    switch self {
    case .strong: "accent"
    case .normal: "regular"
    case .weak: "weak"
    case .silent: "silent"
    }
  }

  /// Its name in JSON: `strong`, `normal`, `weak` or `silent`.
  public var name: String {
    switch self {
    case .strong: "strong"
    case .normal: "normal"
    case .weak: "weak"
    case .silent: "silent"
    }
  }
}
