/// How many beats a bar may hold.
///
/// Raytronome's rule, the default, allows as many beats as the denominator (4/4, 8/8, 32/32 at
/// most); raising the cap lets a player ask for 5/4 or 7/4.
public struct NumeratorCap: Hashable, Sendable, CustomStringConvertible {
  /// The largest numerator any cap allows.
  public static let ceiling = 64
  /// Raytronome's rule: the numerator may not exceed the denominator.
  public static let denominator = NumeratorCap(atLeast: nil)

  /// The raised cap, if any; nil means the denominator alone sets the maximum.
  public let atLeast: Int?

  /// A cap that allows at least `beats` beats per bar in every meter (never fewer than the denominator).
  public init(atLeast beats: Int?) {
    atLeast = beats.map { min(max($0, 1), Self.ceiling) }
  }

  /// The largest numerator allowed over `denominator`.
  public func maxNumerator(denominator: Int) -> Int {
    max(denominator, atLeast ?? denominator)
  }

  /// How it reads in messages and test failures.
  public var description: String {
    atLeast.map { "at least \($0) beats per bar" } ?? "the denominator"
  }
}
