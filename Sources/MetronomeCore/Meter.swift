/// A time signature `numerator/denominator`: the denominator a power of two from 1 to 64, the
/// numerator from 1 to the maximum its `NumeratorCap` allows.
public struct Meter: Hashable, Sendable, CustomStringConvertible {
  /// The denominators a meter may have.
  public static let denominators = [1, 2, 4, 8, 16, 32, 64]
  /// The steps of Raytronome's denominator stepper: step `s` means a denominator of `2^(s+1)`.
  public static let denominatorSteps = 1...4
  /// Common time, where every metronome starts.
  public static let fourFour = Meter(unchecked: 4, 4)

  /// Beats per bar.
  public let numerator: Int
  /// The note value of one beat.
  public let denominator: Int

  /// The meter `numerator/denominator`, or an error saying what is wrong with it.
  public init(_ numerator: Int, _ denominator: Int, cap: NumeratorCap = .denominator) throws(MeterError) {
    guard Self.denominators.contains(denominator) else { throw .denominatorNotPowerOfTwo(denominator) }
    let maximum = cap.maxNumerator(denominator: denominator)
    guard numerator >= 1 else { throw .numeratorTooSmall(numerator) }
    guard numerator <= maximum else {
      throw .numeratorOverCap(numerator: numerator, denominator: denominator, maximum: maximum)
    }
    self.init(unchecked: numerator, denominator)
  }

  /// The meter a signature such as "7/8" names.
  public init(parsing signature: String, cap: NumeratorCap = .denominator) throws(MeterError) {
    let parts = signature.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let numerator = Int(parts[0]), let denominator = Int(parts[1]) else {
      throw .unreadable(signature)
    }
    try self.init(numerator, denominator, cap: cap)
  }

  /// The meter with the numerator clamped into what the cap allows over `denominator`;
  /// `denominator` must be one of `denominators`.
  public init(clampingNumerator numerator: Int, denominator: Int, cap: NumeratorCap) {
    precondition(Self.denominators.contains(denominator), "denominator \(denominator) is not a power of two")
    let maximum = cap.maxNumerator(denominator: denominator)
    self.init(unchecked: min(max(numerator, 1), maximum), denominator)
  }

  private init(unchecked numerator: Int, _ denominator: Int) {
    self.numerator = numerator
    self.denominator = denominator
  }

  /// The quarter notes in one of its beats: 1 in 4/4, 0.5 in 6/8.
  public var quartersPerBeat: Double { 4 / Double(denominator) }

  /// The quarter notes in one of its bars: 4 in 4/4, 3 in 6/8.
  public var quartersPerBar: Double { Double(numerator) * quartersPerBeat }

  /// "4/4".
  public var signature: String { "\(numerator)/\(denominator)" }

  /// How it reads in messages and test failures.
  public var description: String { signature }

  /// The denominator a stepper position stands for: 1, 2, 3, 4 give 4, 8, 16, 32; positions
  /// outside the stepper's range are clamped to it.
  public static func denominator(forStep step: Int) -> Int {
    1 << (min(max(step, denominatorSteps.lowerBound), denominatorSteps.upperBound) + 1)
  }

  /// The stepper position of a denominator, the inverse of `denominator(forStep:)`, clamped to
  /// the stepper's range for denominators it cannot show.
  public static func step(forDenominator denominator: Int) -> Int {
    let exponent = denominator.trailingZeroBitCount - 1
    return min(max(exponent, denominatorSteps.lowerBound), denominatorSteps.upperBound)
  }
}

/// Why a meter is not valid.
public enum MeterError: Error, Equatable, Sendable, CustomStringConvertible {
  case unreadable(String)
  case denominatorNotPowerOfTwo(Int)
  case numeratorTooSmall(Int)
  case numeratorOverCap(numerator: Int, denominator: Int, maximum: Int)

  /// How it reads in messages and test failures.
  public var description: String {
    switch self {
    case .unreadable(let text):
      return "'\(text)' is not a meter: write beats/note, for example 4/4 or 7/8"
    case .denominatorNotPowerOfTwo(let denominator):
      return "meter denominator \(denominator) is not one of 1, 2, 4, 8, 16, 32, 64"
    case .numeratorTooSmall(let numerator):
      return "meter numerator \(numerator) is too small: a bar has at least 1 beat"
    case .numeratorOverCap(let numerator, let denominator, let maximum):
      return "meter \(numerator)/\(denominator) has more than \(maximum) beats per bar: write at most \(maximum)"
    }
  }
}
