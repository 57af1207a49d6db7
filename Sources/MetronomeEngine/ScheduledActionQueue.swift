import MetronomeAudio

/// A min-heap of actions ordered by time, then by the order they were scheduled in, so actions
/// due at the same time run first-in first-out.
struct ScheduledActionQueue {
  private struct Entry {
    let time: AudioTime
    let sequence: UInt64
    let action: () -> Void

    func precedes(_ other: Entry) -> Bool { (time, sequence) < (other.time, other.sequence) }
  }

  private var heap: [Entry] = []
  private var nextSequence: UInt64 = 0

  init(capacity: Int) { heap.reserveCapacity(capacity) }

  var count: Int { heap.count }

  mutating func insert(_ action: @escaping () -> Void, at time: AudioTime) {
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

  /// Removes and returns the earliest action if it is due before `end`.
  mutating func popEarliest(before end: AudioTime) -> (time: AudioTime, action: () -> Void)? {
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
    return (first.time, first.action)
  }
}
