/// The ALSA buffer a run asks for: the size it starts at and the largest it may grow to.
public struct ALSABuffer: Sendable, Equatable {
  /// The frames it starts with.
  public let startingFrames: Int
  /// The most frames it may grow to after underruns; the starting size when it may not grow.
  public let maximumFrames: Int

  /// A buffer of `frames`, fixed, as `--buffer` gives it.
  public static func fixed(_ frames: Int) -> ALSABuffer { ALSABuffer(startingFrames: frames, maximumFrames: frames) }

  /// The buffer chosen for periods of `periodFrames` when none is given: 1024 frames, or two
  /// periods if more, doubling after underruns up to four times that.
  public static func adapting(periodFrames: Int) -> ALSABuffer {
    let starting = max(1024, 2 * periodFrames)
    return ALSABuffer(startingFrames: starting, maximumFrames: 4 * starting)
  }
}
