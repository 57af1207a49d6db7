import MetronomeAudio
import MetronomeCore

/// An audio sink for tests: it takes each period at once, reports a fixed device delay and the
/// underruns and glitches the test sets, and tells `onWrite` how many frames came, so that a test can advance
/// its virtual clock as a device's pace would.
///
/// Set `failure` to make the next write throw, as a device that stops does.
public final class FakeAudioSink: AudioSink {
  /// The rate it takes.
  public let sampleRate: SampleRate
  /// The delay it reports, in frames.
  public var outputDelayFrames: Int64
  /// The underruns it reports.
  public var underrunCount = 0
  /// The buffer size it reports (at first, its delay); a test grows it as a device does after underruns.
  public var bufferFrames: Int
  /// What glitches cost, one value for each time the player asks after a write (then nothing).
  public var lostFrames: [Int64] = []
  /// The error the next write throws, if any.
  public var failure: (any Error)?
  /// Every frame written so far, as mono samples.
  public private(set) var samples: [Float] = []
  /// Whether `finish()` was called.
  public private(set) var isFinished = false
  private let onWrite: (Int) -> Void

  /// A sink at `sampleRate` reporting `delayFrames` of delay; `onWrite` is called after each write.
  public init(sampleRate: SampleRate = .standard, delayFrames: Int64 = 0, onWrite: @escaping (Int) -> Void = { _ in }) {
    self.sampleRate = sampleRate
    outputDelayFrames = delayFrames
    bufferFrames = Int(delayFrames)
    self.onWrite = onWrite
  }

  /// Keeps `period`'s samples, or throws `failure`.
  public func write(_ period: RenderedPeriod) throws {
    if let failure { throw failure }
    samples += period.samples
    onWrite(period.frames)
  }

  /// The next of `lostFrames`, or 0.
  public func takeLostFrames() -> Int64 { lostFrames.isEmpty ? 0 : lostFrames.removeFirst() }

  /// Marks the sink finished.
  public func finish() throws { isFinished = true }
}
