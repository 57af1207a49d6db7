/// An input's periods read while its position is in doubt (`EarliestReading.isDoubted`), held
/// until the next readings say whether its stream moved.
///
/// A sound server that skipped a cycle on a stalled machine takes a quantum out of what is
/// captured, and its readings say so only from the first period after the skip, which is taken
/// as a move at the third such reading in a row. The periods read in between are a cycle later
/// than the alignment still says: heard then, a stroke among them was placed a cycle early. Held,
/// they are heard as placed when a reading agrees again (a reader woken late), and never heard
/// when the stream moved (then they went unheard, as what follows does until it settles).
/// Nothing is held while the readings agree, so a steady input is heard as soon as it is read.
///
/// Allocates nothing once made; `@unchecked Sendable`: touched only by the thread that reads the
/// input.
public final class DoubtedPeriods: @unchecked Sendable {
  /// Room for the periods held, a slot of `frames` samples each, used in turn.
  private var samples: [Float]
  /// The run frame and length of the period in each slot.
  private var placed: [(first: Int64, frames: Int)]
  /// The slot of the oldest period held.
  private var oldest = 0
  /// How many periods are held.
  public private(set) var count = 0
  /// How many periods it holds at most: those before the reading that says the stream moved.
  let capacity: Int
  /// The most frames a period may have.
  let frames: Int

  /// Nothing held, with room for the periods read before a move is said, each of at most `frames`
  /// frames.
  public init(frames: Int) {
    capacity = EarliestReading.lateReadingsToMove - 1
    self.frames = frames
    samples = [Float](repeating: 0, count: capacity * frames)
    placed = Array(repeating: (0, 0), count: capacity)
  }

  /// Takes `period`, which the input's clock placed on the run's frame `first`, and gives `hear`
  /// what may be heard now, in the order read.
  ///
  /// `first` is nil where the clock placed nothing (not settled, or just moved). While the
  /// position is `doubted` the period is held (the oldest heard when the room is full); once it is
  /// not, every held period and this one are heard; when the stream `moved`, nothing held is ever
  /// heard. A period longer than `frames` is heard as placed.
  public func take(
    _ period: UnsafeBufferPointer<Float>, placedAt first: Int64?, doubted: Bool, moved: Bool,
    hear: (UnsafeBufferPointer<Float>, Int64) -> Void
  ) {
    if moved { count = 0 }
    guard let first else { return }
    guard doubted, period.count <= frames else {
      while count > 0 { releaseOldest(hear) }
      hear(period, first)
      return
    }
    if count == capacity { releaseOldest(hear) }
    let slot = (oldest + count) % capacity
    samples.withUnsafeMutableBufferPointer { room in
      _ = UnsafeMutableBufferPointer(rebasing: room[slot * frames..<slot * frames + period.count]).initialize(
        from: period)
    }
    placed[slot] = (first, period.count)
    count += 1
  }

  /// Gives `hear` the oldest period held, and holds it no more.
  private func releaseOldest(_ hear: (UnsafeBufferPointer<Float>, Int64) -> Void) {
    let period = placed[oldest]
    samples.withUnsafeBufferPointer { room in
      hear(UnsafeBufferPointer(rebasing: room[oldest * frames..<oldest * frames + period.frames]), period.first)
    }
    oldest = (oldest + 1) % capacity
    count -= 1
  }
}
