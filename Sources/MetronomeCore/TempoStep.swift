/// A step trainer's step, as `--step` writes it: `5/4` is 5 BPM more every 4 bars, `-5/30s` 5 BPM
/// less about every 30 seconds.
public struct TempoStep: Hashable, Sendable, CustomStringConvertible {
  /// BPM added at each step; negative slows down.
  public let change: Double
  /// How long each tempo lasts.
  public let length: TempoMap.StepLength
  /// How it was written.
  public let description: String

  /// `STEP/BARS` (bars 1 to `TempoMapParser.maximumBars`) or `STEP/SECONDSs` (seconds more than 0).
  public init(parsing text: String) throws(TempoStepError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let change = Double(parts[0]) else { throw TempoStepError(text: text) }
    if parts[1].hasSuffix("s"), let seconds = Double(parts[1].dropLast()), seconds.isFinite, seconds > 0 {
      length = .seconds(seconds)
    } else if let bars = Int(parts[1]), (1...TempoMapParser.maximumBars).contains(bars) {
      length = .bars(bars)
    } else {
      throw TempoStepError(text: text)
    }
    self.change = change
    description = text
  }
}

/// A step that is neither `STEP/BARS` nor `STEP/SECONDSs`.
public struct TempoStepError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was written.
  public let text: String

  /// The error for `text`.
  public init(text: String) { self.text = text }

  /// How it reads: what was wrong and what to write.
  public var description: String { "'\(text)' is not STEP/BARS or STEP/SECONDSs, such as 5/4 or 5/30s" }
}
