import Synchronization

/// The output's latest samples by frame, written by the thread that plays them and read by the
/// one that listens, with neither waiting for the other: where the input is read on a thread of
/// its own (an ALSA capture device), the listener takes the output from here.
///
/// One writer, one reader. The reader takes only frames from the newest half of the ring, so that
/// the writer, which fills the slots of the oldest frames, never writes what is being read.
public final class PlayedRing: @unchecked Sendable {
  /// 2^17 frames, 2.7 s at 48 kHz: far more than any device's buffer.
  private let size: Int64 = 1 << 17
  private let samples: UnsafeMutablePointer<Float>
  /// The frame after the last one written; `Int64.min` before any.
  private let end = Atomic<Int64>(.min)
  /// The first frame written; `Int64.min` before any.
  private let begin = Atomic<Int64>(.min)
  /// The frame after the last one read.
  private var readEnd: Int64 = .min

  /// An empty ring.
  public init() {
    samples = .allocate(capacity: Int(size))
    samples.initialize(repeating: 0, count: Int(size))
  }

  deinit { samples.deallocate() }

  /// Keeps `output`, the frames from `firstFrame` on (on the writer's thread); allocates nothing.
  ///
  /// Frames passed over since the last write (the run's frames a glitch skipped) were never
  /// played, and are kept as silence.
  public func write(_ output: UnsafeBufferPointer<Float>, from firstFrame: Int64) {
    if begin.load(ordering: .relaxed) == .min { begin.store(firstFrame, ordering: .relaxed) }
    let lastEnd = end.load(ordering: .relaxed)
    if lastEnd != .min, firstFrame > lastEnd {
      for frame in max(lastEnd, firstFrame - size)..<firstFrame { samples[Int(frame & (size - 1))] = 0 }
    }
    for (index, sample) in output.enumerated() {
      samples[Int((firstFrame + Int64(index)) & (size - 1))] = sample
    }
    end.store(firstFrame + Int64(output.count), ordering: .releasing)
  }

  /// Gives `body` what was written since the last call (on the reader's thread), in at most two
  /// pieces with their first frames: none before the first write, and no more than half the ring.
  public func readNew(_ body: (UnsafeBufferPointer<Float>, Int64) -> Void) {
    let end = end.load(ordering: .acquiring)
    guard end != .min else { return }
    var from = max(readEnd, end - size / 2, begin.load(ordering: .relaxed))
    while from < end {
      let slot = Int(from & (size - 1))
      let count = min(Int(end - from), Int(size) - slot)
      body(UnsafeBufferPointer(start: samples + slot, count: count), from)
      from += Int64(count)
    }
    readEnd = end
  }
}
