import MetronomeAudio

/// A min-heap of actions ordered by time, then by the order they were scheduled in, so actions
/// due at the same time run first-in first-out; and the clock's current time, which popping an
/// action moves to the action's time, so that the scheduler changes both in one access.
public struct ScheduledActionQueue {
  private struct Entry {
    let time: AudioTime
    let sequence: UInt64
    let action: () -> Void

    func precedes(_ other: Entry) -> Bool { (time, sequence) < (other.time, other.sequence) }
  }

  private var heap: [Entry] = []
  private var nextSequence: UInt64 = 0
  /// The time of the action run last, or the time the clock was moved to; never decreasing.
  public private(set) var now: AudioTime

  /// An empty queue with room for `capacity` actions, its current time `now`.
  public init(capacity: Int, now: AudioTime) {
    heap.reserveCapacity(capacity)
    self.now = now
  }

  /// How many actions are waiting.
  public var count: Int { heap.count }

  /// When the earliest action is due; nil when none waits.
  public var earliest: AudioTime? { heap.first?.time }

  /// Adds `action`, due at `time`.
  public mutating func insert(_ action: @escaping () -> Void, at time: AudioTime) {
    heap.append(Entry(time: time, sequence: nextSequence, action: action))
    nextSequence += 1
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].precedes(heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  /// Moves the current time to `time` unless it is already later.
  public mutating func moveNow(to time: AudioTime) { now = max(now, time) }

  /// Removes and returns the earliest action if it is due before `end`, moving the current time
  /// to the action's.
  public mutating func popEarliest(before end: AudioTime) -> (() -> Void)? {
    guard let first = heap.first, first.time < end else { return nil }
    let last = heap.removeLast()
    if !heap.isEmpty {
      heap[0] = last
      var parent = 0
      while true {
        let left = 2 * parent + 1
        let right = left + 1
        var smallest = parent
        if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
        if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
        guard smallest != parent else { break }
        heap.swapAt(parent, smallest)
        parent = smallest
      }
    }
    moveNow(to: first.time)
    return first.action
  }
}
