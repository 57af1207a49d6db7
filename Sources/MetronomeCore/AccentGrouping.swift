/// How beats are grouped for their accents, as `--group` writes it: groups such as `2+2+3`, or
/// `compound`, a compound meter's threes.
public enum AccentGrouping: Hashable, Sendable, CustomStringConvertible {
  /// Threes, for 6/8, 9/8 and 12/8.
  case compound
  /// Groups of these many beats, in order.
  case groups([Int])

  /// `compound`, or the beats of each group joined by `+` (each 1 to 64).
  public init(parsing text: String) throws(AccentPatternError) {
    guard text != "compound" else {
      self = .compound
      return
    }
    // Read as a pattern would be, so that a grouping that makes none is refused here.
    _ = try AccentPattern(grouping: text)
    self = .groups(text.split(separator: "+").compactMap { Int($0) })
  }

  /// The pattern it makes in a bar of `meter`: nil where `meter` is not compound; throws where
  /// the groups do not add up to the bar.
  public func pattern(in meter: Meter) throws(AccentPatternError) -> AccentPattern? {
    switch self {
    case .compound:
      return AccentPattern.compound(for: meter)
    case .groups(let sizes):
      let pattern = try AccentPattern(groups: sizes)
      guard pattern.fits(meter) else { throw .groupingDoesNotFit(description, beats: pattern.count, meter) }
      return pattern
    }
  }

  /// How it is written: `compound`, or `2+2+3`.
  public var description: String {
    switch self {
    case .compound: "compound"
    case .groups(let sizes): sizes.map(String.init).joined(separator: "+")
    }
  }
}
