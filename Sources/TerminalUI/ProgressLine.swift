import Glibc
import MetronomeCore

/// A one-line progress report on standard error for long work, redrawn in place at most a few
/// times a second, and only when standard error is a terminal.
public final class ProgressLine {
  private let total: Int64?
  private let sampleRate: SampleRate
  private let isTerminal: Bool
  private var lastDrawn = ContinuousClock.now
  private var drawn = false

  /// A progress line for `total` frames at `sampleRate` (nil when the total is unknown).
  public init(total: Int64?, sampleRate: SampleRate, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
    self.total = total
    self.sampleRate = sampleRate
    self.isTerminal = isTerminal
  }

  /// Reports `frames` done.
  public func update(_ frames: Int64) {
    guard isTerminal, ContinuousClock.now - lastDrawn > .milliseconds(200) else { return }
    lastDrawn = ContinuousClock.now
    drawn = true
    TextOutput.standardError.write("\r\u{1B}[K" + Self.text(frames: frames, total: total, sampleRate: sampleRate))
  }

  /// Clears the line.
  public func finish() {
    guard drawn else { return }
    TextOutput.standardError.write("\r\u{1B}[K")
  }

  /// "exporting: 42% (756.0 of 1800.0 s)", or without the share when the total is unknown.
  public static func text(frames: Int64, total: Int64?, sampleRate: SampleRate) -> String {
    let done = Tempo.format(Double(frames) / Double(sampleRate.hz))
    guard let total, total > 0 else { return "exporting: \(done) s" }
    let percent = min(100, frames * 100 / total)
    return "exporting: \(percent)% (\(done) of \(Tempo.format(Double(total) / Double(sampleRate.hz))) s)"
  }
}
