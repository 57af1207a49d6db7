/// Where an input stopped being heard and where it is heard again, in the run's frames, once it
/// lost frames (a sound server's xrun, a capture device's overrun): the time in between went
/// unheard, and what is heard next jumps from what was heard before.
///
/// `@unchecked Sendable`: touched only on the thread that hears the input.
public final class InputGaps: @unchecked Sendable {
  /// The run's frame after the last one heard; nil before the first.
  private var heardUntil: Int64?
  /// Whether frames were lost since the last heard.
  private var lost = false

  /// Nothing heard yet.
  public init() {}

  /// Notes that the input lost frames before what it gives next (which it may not place at once).
  public func lostFrames() { lost = true }

  /// Notes `frames` frames heard from the run's frame `first` on; returns the frames since the last
  /// heard where frames were lost in between (zero or more), else nil.
  public func heard(from first: Int64, frames: Int) -> Int64? {
    defer { (heardUntil, lost) = (first + Int64(frames), false) }
    guard lost, let heardUntil else { return nil }
    return max(first - heardUntil, 0)
  }
}
