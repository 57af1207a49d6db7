/// How a beat is divided: `count` evenly spaced clicks (the beat's own and `count - 1` more,
/// eighths for 2, triplets for 3, sixteenths for 4), and for an even count a swing that delays
/// every second one.
public struct Subdivision: Hashable, Sendable, CustomStringConvertible {
  /// Clicks per beat the player may ask for, the beat's own included.
  public static let counts = 1...9
  /// Swing ratios the player may ask for: 50 % is straight, 66.7 % the triplet feel.
  public static let swings = 0.5...0.75
  /// No subdivision: the beat alone.
  public static let none = Subdivision(unchecked: 1, swing: 0.5)

  /// Clicks per beat, the beat's own included.
  public let count: Int
  /// How far into each pair of clicks the second one falls, from 0.5 (straight) to 0.75.
  public let swing: Double

  /// `count` clicks per beat, swung by `swing` (a ratio, 0.5 for straight).
  public init(_ count: Int, swing: Double = 0.5) throws(SubdivisionError) {
    guard Self.counts.contains(count) else { throw .countOutOfRange(count) }
    guard swing.isFinite, Self.swings.contains(swing) else { throw .swingOutOfRange(swing) }
    guard swing == 0.5 || count.isMultiple(of: 2) else { throw .swingNeedsAnEvenCount(count) }
    self.init(unchecked: count, swing: swing)
  }

  private init(unchecked count: Int, swing: Double) {
    self.count = count
    self.swing = swing
  }

  /// The swing ratio `percent` stands for: the triplet feel is exactly 2/3, written 66.7 (or
  /// any closer), since a musician means the triplet, not a thousandth off it.
  public static func swing(percent: Double) -> Double {
    abs(percent - 200.0 / 3) < 0.05 ? 2.0 / 3 : percent / 100
  }

  /// How far after its beat click `k` (1 to `count - 1`) falls, in frames, for a beat
  /// `beatLength` frames long.
  public func offset(ofClick k: Int, beatLength: Double) -> Double {
    Self.offset(ofClick: k, of: count, swing: swing, length: beatLength)
  }

  /// How far into a span `length` frames long, divided into `clicks` clicks, click `k` falls:
  /// `k × length / clicks` straight; swung, each pair of clicks spans `2 × length / clicks` and
  /// its second click falls `swing` of the way into it.
  public static func offset(ofClick k: Int, of clicks: Int, swing: Double, length: Double) -> Double {
    let step = length / Double(clicks)
    if swing == 0.5 || k.isMultiple(of: 2) { return Double(k) * step }
    return Double(k - 1) * step + swing * 2 * step
  }

  /// The same clicks per beat with `swing`, or itself when that swing cannot apply.
  public func swung(_ swing: Double) -> Subdivision { (try? Subdivision(count, swing: swing)) ?? self }

  /// With `count` clicks per beat, keeping the swing where it still applies.
  public func counting(_ count: Int) -> Subdivision {
    let clamped = min(max(count, Self.counts.lowerBound), Self.counts.upperBound)
    return Subdivision(unchecked: clamped, swing: clamped.isMultiple(of: 2) ? swing : 0.5)
  }

  /// "3", "2 swung 66.7 %".
  public var description: String {
    swing == 0.5 ? "\(count)" : "\(count) swung \(Tempo.format(swing * 100)) %"
  }
}

/// Why a subdivision cannot be played.
public enum SubdivisionError: Error, Equatable, Sendable, CustomStringConvertible {
  case countOutOfRange(Int)
  case swingOutOfRange(Double)
  case swingNeedsAnEvenCount(Int)

  /// How it reads in messages and test failures.
  public var description: String {
    switch self {
    case .countOutOfRange(let count):
      return "a subdivision of \(count) clicks per beat is out of range: use 1 (none) to 9"
    case .swingOutOfRange(let swing):
      return
        "a swing of \(Tempo.format(swing * 100)) % is out of range: use 50 (straight) to 75 (66.7 is the triplet feel)"
    case .swingNeedsAnEvenCount(let count):
      return "swing delays every second click, so it needs an even subdivision (2, 4, 6 or 8), not \(count)"
    }
  }
}
