import MetronomeAudio
import MetronomeCore
import OpenCombine

/// A scheduler whose clock is the audio render cursor: `now` is the first frame not yet
/// rendered.
///
/// Whoever renders calls `advance(to:)` before filling each period, which runs every
/// action due inside it in time order, each with `now` at its own time. Safe to schedule on from
/// any thread; actions run on the thread that advances the clock.
///
/// `@unchecked Sendable`: the queue and the current time are read and written only under `lock`.
public final class AudioClockScheduler: Scheduler, @unchecked Sendable {
  /// Time is counted in `AudioTime`.
  public typealias SchedulerTimeType = AudioTime
  /// It takes no options.
  public typealias SchedulerOptions = Never

  private let lock = Lock()
  private var queue: ScheduledActionQueue

  /// A clock starting at `start`.
  public init(start: AudioTime = 0) { queue = ScheduledActionQueue(capacity: 64, now: start) }

  /// The scheduler's current time.
  public var now: AudioTime { lock.withLock { queue.now } }

  /// The smallest tolerance it honours.
  public var minimumTolerance: AudioTime.Stride { .zero }

  /// How many actions are waiting.
  public var pendingCount: Int { lock.withLock { queue.count } }

  /// Runs `action` as soon as possible.
  public func schedule(options: Never?, _ action: @escaping () -> Void) {
    lock.withLock { queue.insert(action, at: queue.now) }
  }

  /// Schedules `action` at `date`, or now if `date` has passed: the clock never runs backwards.
  public func schedule(
    after date: AudioTime, tolerance: AudioTime.Stride, options: Never?, _ action: @escaping () -> Void
  ) {
    lock.withLock { queue.insert(action, at: max(date, queue.now)) }
  }

  /// Schedules `action` at `date` and then every `interval` (at least one tick) until cancelled.
  public func schedule(
    after date: AudioTime, interval: AudioTime.Stride, tolerance: AudioTime.Stride, options: Never?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    scheduleRepeating(after: date, interval: interval, action)
  }

  /// Runs, in time order, every action due before `end` (including those the actions schedule),
  /// then moves the clock to `end`.
  public func advance(to end: AudioTime) {
    while let action = lock.withLock({ queue.popEarliest(before: end) }) {
      action()
    }
    lock.withLock { queue.moveNow(to: end) }
  }
}
