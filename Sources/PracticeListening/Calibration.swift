/// What a tap-along calibration takes from the hits: their median offset, which later runs take
/// off every hit, or why it cannot be trusted.
///
/// As rhythm games do: at least 32 hits, the median (which a stray hit moves least), refused when
/// the hits spread more than 30 ms (standard deviation), as no single offset then says where the
/// player is.
public enum Calibration {
  /// The fewest hits a calibration takes.
  public static let hitsNeeded = 32
  /// The widest spread, in ms of standard deviation, a calibration is trusted with.
  public static let widestSpread = 30.0

  /// Where the hits came from: each has its own latency.
  public enum Source: String, CaseIterable, Sendable {
    /// MIDI notes, from a kit, a keyboard or a pad.
    case midi
    /// Typed keys, through the terminal.
    case keys
    /// Not a tap-along: the round trip from JACK's output to its input (`calibrate --loopback`),
    /// taken off every attack heard on the audio input.
    case jackRoundTrip = "jack-round-trip"
    /// Not a tap-along: what the round trip from an ALSA output to an ALSA capture device takes
    /// beyond what the two devices report (`calibrate --loopback --listen-device`), taken off every
    /// attack heard on that device.
    case alsaUnreportedLatency = "alsa-unreported-latency"
  }

  /// The offset `statistics` calibrate to, or the one line that says why not.
  public static func offset(from statistics: HitStatistics?) -> Result<Double, CalibrationError> {
    guard let statistics, statistics.count >= hitsNeeded else {
      return .failure(
        CalibrationError(
          "calibration needs \(hitsNeeded) hits and got \(statistics?.count ?? 0): nothing was saved; play along"
            + " until it ends by itself"))
    }
    guard statistics.standardDeviation <= widestSpread else {
      return .failure(
        CalibrationError(
          "the hits spread \(HitStatistics.format(statistics.standardDeviation)) ms (standard deviation), more than"
            + " \(HitStatistics.format(widestSpread)): no one offset says where you play, so nothing was saved;"
            + " calibrate again, as steadily as you can"))
    }
    return .success(statistics.median)
  }

  /// What a calibration from `source` says once saved at `path`.
  public static func saying(_ statistics: HitStatistics, from source: Source, savedAt path: String) -> String {
    let what = source == .midi ? "your notes" : "your keys"
    let median = HitStatistics.format(statistics.median)
    return
      "\(what) came \(HitStatistics.format(abs(statistics.median))) ms \(statistics.median < 0 ? "before" : "after")"
      + " the clicks (the median of"
      + " \(statistics.count); mean \(HitStatistics.format(statistics.mean)), standard deviation"
      + " \(HitStatistics.format(statistics.standardDeviation)))"
      + (source == .midi
        ? "; later runs with --listen take \(median) ms off every note (--input-offset overrides it)"
        : ": the keyboard's and the terminal's delay and your own; a MIDI kit calibrates with --jack")
      + "; saved in \(path)"
  }
}

/// A calibration that cannot be trusted, or a calibration file that cannot be read, and why.
public struct CalibrationError: Error, Equatable, CustomStringConvertible {
  /// What went wrong and what to do.
  public let description: String

  /// An error saying `description`.
  public init(_ description: String) { self.description = description }
}
