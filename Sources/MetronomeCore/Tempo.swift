/// A tempo in quarter notes per minute, whatever the meter (as in klick): one beat of an
/// `n/d` meter lasts `60 / bpm × 4 / d` seconds.
public struct Tempo: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The tempos a metronome accepts, inclusive.
  public static let range: ClosedRange<Double> = 1...1000
  /// The tempo a new metronome starts at.
  public static let standard = Tempo(uncheckedBPM: 120)

  /// Quarter notes per minute; always finite and inside `range`.
  public let bpm: Double

  /// A tempo of exactly `bpm`, or an error saying why it cannot be one.
  public init(bpm: Double) throws(TempoError) {
    guard !bpm.isNaN else { throw .notANumber }
    guard Self.range.contains(bpm) else { throw .outOfRange(bpm) }
    self.bpm = bpm
  }

  /// The nearest valid tempo to `bpm`, or nil when `bpm` is NaN (there is no nearest one).
  public init?(clamping bpm: Double) {
    guard !bpm.isNaN else { return nil }
    self.bpm = min(max(bpm, Self.range.lowerBound), Self.range.upperBound)
  }

  private init(uncheckedBPM bpm: Double) { self.bpm = bpm }

  /// How long one beat of a meter with this denominator lasts, in seconds.
  public func secondsPerBeat(denominator: Int) -> Double {
    240 / (bpm * Double(denominator))
  }

  /// The tempo as a musician reads it: "120 BPM", "97.5 BPM", at most two decimals.
  public var text: String { "\(Self.format(bpm)) BPM" }

  /// How it reads in messages and test failures.
  public var description: String { text }

  /// Whether `lhs` comes before `rhs`.
  public static func < (lhs: Tempo, rhs: Tempo) -> Bool { lhs.bpm < rhs.bpm }

  /// `value` with at most two decimals and no trailing zeros; shared by every display of a tempo.
  public static func format(_ value: Double) -> String {
    guard abs(value) < 1e12 else { return "\(value)" }
    let hundredths = Int((abs(value) * 100).rounded())
    // The sign is written once, in front, so that -5.25 reads "-5.25" and -0.001 reads "0".
    let sign = value < 0 && hundredths > 0 ? "-" : ""
    let whole = hundredths / 100
    let fraction = hundredths % 100
    if fraction == 0 { return "\(sign)\(whole)" }
    if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
    return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}

/// Why a number is not a tempo.
public enum TempoError: Error, Equatable, Sendable, CustomStringConvertible {
  case notANumber
  case outOfRange(Double)

  /// How it reads in messages and test failures.
  public var description: String {
    switch self {
    case .notANumber:
      return "tempo must be a number of quarter notes per minute, from 1 to 1000"
    case .outOfRange(let bpm):
      return "tempo \(Tempo.format(bpm)) is out of range: use 1 to 1000 quarter notes per minute"
    }
  }
}
