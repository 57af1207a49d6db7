/// What a set of scored hits says of the player's timing, in milliseconds (negative = early).
///
/// The spread is the population standard deviation; the unstable rate is ten times it, as rhythm
/// games count it. A hit is on time within the tolerance either way, early or late beyond it.
/// The drift is the slope of the least-squares line through the offsets over the run: positive
/// when the player drags (comes later and later), negative when they rush.
public struct HitStatistics: Equatable, Sendable {
  /// How many hits.
  public let count: Int
  /// Their mean offset.
  public let mean: Double
  /// Their median offset: what calibration uses, as one stray hit moves it least.
  public let median: Double
  /// The population standard deviation of the offsets.
  public let standardDeviation: Double
  /// The tolerance the hits were judged with.
  public let tolerance: Double
  /// Hits within the tolerance either way.
  public let onTime: Int
  /// Hits earlier than the tolerance.
  public let early: Int
  /// Hits later than the tolerance.
  public let late: Int
  /// The fitted line's slope, in milliseconds a minute; nil until hits span some time.
  public let driftPerMinute: Double?

  /// The statistics of `hits`, judged within `tolerance` ms; nil for no hits.
  public init?(_ hits: [ScoredHit], tolerance: Double) {
    self.init(offsets: hits.map { (seconds: $0.seconds, milliseconds: $0.offsetMilliseconds) }, tolerance: tolerance)
  }

  /// The statistics of offsets in milliseconds at times in seconds; nil for none.
  public init?(offsets: [(seconds: Double, milliseconds: Double)], tolerance: Double) {
    guard !offsets.isEmpty else { return nil }
    let values = offsets.map(\.milliseconds)
    let count = Double(values.count)
    let mean = values.reduce(0, +) / count
    self.count = values.count
    self.mean = mean
    median = Self.median(values)
    standardDeviation = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / count).squareRoot()
    self.tolerance = tolerance
    early = values.count { $0 < -tolerance }
    late = values.count { $0 > tolerance }
    onTime = values.count - early - late
    let meanTime = offsets.map(\.seconds).reduce(0, +) / count
    let spread = offsets.map { ($0.seconds - meanTime) * ($0.seconds - meanTime) }.reduce(0, +)
    let covariance = offsets.map { ($0.seconds - meanTime) * ($0.milliseconds - mean) }.reduce(0, +)
    driftPerMinute = spread > 0 ? covariance / spread * 60 : nil
  }

  /// Ten times the standard deviation.
  public var unstableRate: Double { 10 * standardDeviation }

  /// The share of hits on time, 0 to 1.
  public var onTimeShare: Double { Double(onTime) / Double(count) }

  /// The middle value of `values` (the mean of the middle two for an even count).
  public static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }

  /// One line: `48 hits: mean -2.1 ms, median -1.9 ms, deviation 4.3 ms (unstable rate 43),
  /// 92% within 20 ms, 2 early, 2 late, dragging 0.8 ms a minute`.
  public var summary: String {
    var line =
      "\(count) hit\(count == 1 ? "" : "s"): mean \(Self.format(mean)) ms, median \(Self.format(median)) ms,"
      + " deviation \(Self.format(standardDeviation)) ms (unstable rate \(Int((unstableRate).rounded()))),"
      + " \(Int((onTimeShare * 100).rounded()))% within \(Self.format(tolerance)) ms, \(early) early, \(late) late"
    if let driftPerMinute { line += ", " + Self.drift(driftPerMinute) }
    return line
  }

  /// A drift of `perMinute` ms a minute in words: `rushing 1.2 ms a minute` where the hits come
  /// earlier and earlier, else `dragging 0.8 ms a minute`.
  public static func drift(_ perMinute: Double) -> String {
    "\(perMinute < 0 ? "rushing" : "dragging") \(format(abs(perMinute))) ms a minute"
  }

  /// Milliseconds with one decimal, `-0.0` written `0.0`.
  public static func format(_ milliseconds: Double) -> String {
    let tenths = Int((milliseconds * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
  }
}
