/// How many beats a bar may hold.
///
/// Raytronome's rule, the default, allows as many beats as the denominator (4/4, 8/8, 32/32 at
/// most); raising the cap lets the keys step up to 5/4 or 7/4. A meter written as it is (on the
/// command line, in a map, by another program) is allowed over its own denominator whatever the
/// rule says, so 5/4 plays as written, while stepping the note value still clamps: from 24/32 to
/// 16/16, 8/8 and 4/4.
public struct NumeratorCap: Hashable, Sendable, CustomStringConvertible {
  /// The largest numerator any cap allows.
  public static let ceiling = 64
  /// Raytronome's rule: the numerator may not exceed the denominator.
  public static let denominator = NumeratorCap(atLeast: nil)
  /// The cap a written meter is checked against: any meter up to `ceiling` beats a bar.
  public static let widest = NumeratorCap(atLeast: ceiling)

  /// The raised cap, if any; nil means the denominator alone sets the maximum.
  public let atLeast: Int?
  /// The meter written as it is, allowed over its denominator; nil for none.
  public let written: Meter?

  /// A cap that allows at least `beats` beats per bar in every meter (never fewer than the
  /// denominator), and `written` over its own denominator.
  public init(atLeast beats: Int?, written: Meter? = nil) {
    atLeast = beats.map { min(max($0, 1), Self.ceiling) }
    self.written = written
  }

  /// The same cap, allowing `meter` as written instead of any meter written before.
  public func allowing(_ meter: Meter) -> NumeratorCap { NumeratorCap(atLeast: atLeast, written: meter) }

  /// The largest numerator allowed over `denominator`.
  public func maxNumerator(denominator: Int) -> Int {
    let writtenNumerator = written.map { $0.denominator == denominator ? $0.numerator : 1 } ?? 1
    return max(denominator, atLeast ?? denominator, writtenNumerator)
  }

  /// How it reads in messages and test failures.
  public var description: String {
    let rule = atLeast.map { "at least \($0) beats per bar" } ?? "the denominator"
    return written.map { "\(rule), and \($0) as written" } ?? rule
  }
}
