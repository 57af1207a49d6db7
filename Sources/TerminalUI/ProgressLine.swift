import MetronomeCore

/// A one-line progress report for long work, drawn at once and then redrawn in place at most a
/// few times a second, and only on a terminal.
public final class ProgressLine {
  private let total: Int64?
  private let sampleRate: SampleRate
  private let output: TextOutput
  private let isTerminal: Bool
  /// When the line was last drawn; nil before the first time.
  private var lastDrawn: ContinuousClock.Instant?

  /// A progress line for `total` frames at `sampleRate` (nil when the total is unknown), on
  /// `output` (standard error unless told).
  public init(total: Int64?, sampleRate: SampleRate, output: TextOutput = .standardError) {
    self.total = total
    self.sampleRate = sampleRate
    self.output = output
    isTerminal = output.isTerminal
  }

  /// Reports `frames` done.
  public func update(_ frames: Int64) {
    let now = ContinuousClock.now
    guard isTerminal, lastDrawn.map({ now - $0 > .milliseconds(200) }) ?? true else { return }
    lastDrawn = now
    output.write("\r\u{1B}[K" + Self.text(frames: frames, total: total, sampleRate: sampleRate))
  }

  /// Clears the line.
  public func finish() {
    guard lastDrawn != nil else { return }
    output.write("\r\u{1B}[K")
  }

  /// "exporting: 42% (756.0 of 1800.0 s)", or without the share when the total is unknown.
  public static func text(frames: Int64, total: Int64?, sampleRate: SampleRate) -> String {
    let done = Tempo.format(Double(frames) / Double(sampleRate.hz))
    guard let total, total > 0 else { return "exporting: \(done) s" }
    let percent = min(100, frames * 100 / total)
    return "exporting: \(percent)% (\(done) of \(Tempo.format(Double(total) / Double(sampleRate.hz))) s)"
  }
}
