/// What the last clicks heard say together: how loud they came back, or how far their direct
/// sound moved, each against its sound's answer.
///
/// One click's reading is leaned by whatever the player played over it; several running, of two
/// sounds or more (a stroke on every accent leans the accent's alone), that agree with their
/// median (all, or all but one, which a stroke leaned more) and move it far enough from no change
/// at all, say the path changed.
///
/// Allocates nothing once made; touched by one thread.
final class RecentReadings {
  private let kept: Int
  private let readings: FloatBuffer
  private let sorted: FloatBuffer
  private var sounds: [Int]
  private var count = 0
  /// How far the readings that agreed lay from their median, as a share of it, when a change was
  /// last said: how far the median itself may be off.
  private(set) var spread: Float = 0
  /// Whether a reading agrees with the readings' median, and whether the median is a change.
  private let agrees: (Float, Float) -> Bool
  private let changed: (Float) -> Bool

  /// The last `count` readings, of two sounds or more, which agree where `agrees(reading, median)`,
  /// but for one of them, and say a change where `changed(median)`.
  init(count: Int, agrees: @escaping (Float, Float) -> Bool, changed: @escaping (Float) -> Bool) {
    kept = count
    readings = FloatBuffer(count: count)
    sorted = FloatBuffer(count: count)
    sounds = [Int](repeating: -1, count: count)
    self.agrees = agrees
    self.changed = changed
  }

  /// Forgets the readings taken.
  func forget() { count = 0 }

  /// Takes a click of `sound`'s reading; returns the median of the last ones where they say the
  /// path changed, and then starts again.
  func read(_ reading: Float, of sound: Int) -> Float? {
    guard reading.isFinite else { return nil }
    readings[count % kept] = reading
    sounds[count % kept] = sound
    count += 1
    guard count >= kept, sounds.contains(where: { $0 != sounds[0] }) else { return nil }
    for index in 0..<kept { sorted[index] = readings[index] }
    var ordered = sorted.pointer
    ordered.sort()
    let median = kept.isMultiple(of: 2) ? 0.5 * (sorted[kept / 2 - 1] + sorted[kept / 2]) : sorted[kept / 2]
    var agreeing = 0
    var widest: Float = 0
    for index in 0..<kept where agrees(sorted[index], median) {
      agreeing += 1
      widest = max(widest, abs(sorted[index] / median - 1))
    }
    guard changed(median), agreeing >= kept - 1 else { return nil }
    spread = widest
    count = 0
    return median
  }
}
