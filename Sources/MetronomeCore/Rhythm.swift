/// How the clicks of a bar sound beyond its tempo and meter: the beats' levels, how each beat is
/// divided, a second voice against the beats, or nothing at all.
public struct Rhythm: Hashable, Sendable {
  /// The clicks a second voice may play in a bar.
  public static let polyrhythmCounts = 1...NumeratorCap.ceiling

  /// The levels of a bar's beats; nil, or one that does not fit the meter, plays the standard ones.
  public var pattern: AccentPattern?
  /// How each beat is divided.
  public var subdivision: Subdivision
  /// A second voice's clicks per bar, evenly spaced across it (3 against 4 beats); nil for none.
  public var polyrhythm: Int?
  /// Whether every click is silenced (counted and shown, never heard).
  public var isMuted: Bool
  /// How loud the clicks play, by level.
  public var gains: ClickGains

  /// A rhythm as given; by default beat one strong, the others normal, undivided, alone, heard
  /// as the sounds are.
  public init(
    pattern: AccentPattern? = nil, subdivision: Subdivision = .none, polyrhythm: Int? = nil, isMuted: Bool = false,
    gains: ClickGains = .unity
  ) {
    self.pattern = pattern
    self.subdivision = subdivision
    self.polyrhythm = polyrhythm
    self.isMuted = isMuted
    self.gains = gains
  }

  /// The level of beat `beatInBar` of a bar of `meter`.
  public func level(ofBeat beatInBar: Int, in meter: Meter) -> AccentLevel? {
    if isMuted { return .silent }
    return pattern.flatMap { $0.fits(meter) ? $0.level(ofBeat: beatInBar) : nil }
  }

  /// The level of a click that is not a beat's own (a subdivision's, the second voice's), given
  /// the level of the beat it goes with, if any: silent when that beat is, or when muted.
  public func level(alongside beat: AccentLevel?) -> AccentLevel {
    isMuted || beat == .silent ? .silent : .normal
  }
}
