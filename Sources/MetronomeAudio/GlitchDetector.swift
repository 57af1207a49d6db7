/// Finds how many frames a glitch cost, by comparing how far the stream's playback moved with how
/// much time passed.
///
/// While nothing is lost, the time on the monotonic clock less the frames heard (both in frames)
/// stays put, give or take the device's cycle, and moves only as slowly as the device's clock
/// drifts from the system's. A glitch moves it at once: the device played on without the stream
/// (the process was stopped, the buffer ran dry: the stream is behind by what was lost) or dropped
/// part of it (ahead). A jump counts only once two positions in a row agree on it, so a position
/// read late by a busy machine is not taken for a glitch, and it is taken in whole device cycles:
/// a device or a sound server's graph loses whole cycles, and positions that move a cycle at a
/// time could not tell a part of one.
public struct GlitchDetector: Sendable {
  private let framesPerNanosecond: Double
  private let cycleFrames: Double
  private let threshold: Double
  private var baseline: Double?
  private var candidate: Double?
  /// Positions in a row that agreed with the baseline: a stream that has not yet played steadily
  /// (a sound server still starting it) tells nothing about losses.
  private var steadyPositions = 0
  private var lastSteadyNanoseconds: Int64 = 0
  private static let positionsToSettle = 32

  /// A detector for a device playing at `sampleRate` in cycles of `cycleFrames`.
  public init(sampleRate: Int, cycleFrames: Int) {
    framesPerNanosecond = Double(sampleRate) / 1e9
    self.cycleFrames = Double(max(cycleFrames, 1))
    // Above the cycle's own jitter and a busy machine's scheduling delays, below any loss that is heard.
    threshold = max(2 * self.cycleFrames, Double(sampleRate) / 100)
  }

  /// Frames lost since the last glitch found, as of `position`: positive when the stream fell
  /// behind (skip that much of it to be back on its grid), negative when it was cut and got ahead
  /// (wait that much), 0 when nothing was lost.
  public mutating func lostFrames(at position: PlaybackPosition) -> Int64 {
    guard position.heardFrames > 0 else { return 0 }
    let offset = Double(position.nanoseconds) * framesPerNanosecond - Double(position.heardFrames)
    guard let baseline else {
      self.baseline = offset
      return 0
    }
    let jump = offset - baseline
    guard abs(jump) >= threshold else {
      candidate = nil
      steadyPositions += 1
      lastSteadyNanoseconds = position.nanoseconds
      // Follows the centre of the cycle's jitter and the clocks' drift.
      self.baseline = baseline + jump / 16
      return 0
    }
    // A device cannot play on without the stream for longer than the time that passed.
    let elapsed = Double(position.nanoseconds - lastSteadyNanoseconds) * framesPerNanosecond
    guard steadyPositions >= Self.positionsToSettle, jump <= elapsed + cycleFrames else {
      self.baseline = offset
      steadyPositions = 0
      candidate = nil
      return 0
    }
    guard let candidate, abs(candidate - jump) < cycleFrames / 2 else {
      candidate = jump
      return 0
    }
    self.candidate = nil
    let lost = Int64(exactly: ((jump + candidate) / 2 / cycleFrames).rounded() * cycleFrames) ?? 0
    self.baseline = baseline + Double(lost)
    return lost
  }
}
