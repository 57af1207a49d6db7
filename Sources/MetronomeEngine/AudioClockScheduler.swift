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
  private var queue = ScheduledActionQueue(capacity: 64)
  private var current: AudioTime

  /// A clock starting at `start`.
  public init(start: AudioTime = 0) { current = start }

  /// The scheduler's current time.
  public var now: AudioTime { lock.withLock { current } }

  /// The smallest tolerance it honours.
  public var minimumTolerance: AudioTime.Stride { .zero }

  /// How many actions are waiting.
  public var pendingCount: Int { lock.withLock { queue.count } }

  /// Runs `action` as soon as possible.
  public func schedule(options: Never?, _ action: @escaping () -> Void) {
    lock.withLock { queue.insert(action, at: current) }
  }

  /// Schedules `action` at `date`, or now if `date` has passed: the clock never runs backwards.
  public func schedule(
    after date: AudioTime, tolerance: AudioTime.Stride, options: Never?, _ action: @escaping () -> Void
  ) {
    lock.withLock { queue.insert(action, at: max(date, current)) }
  }

  /// Schedules `action` at `date` and then every `interval` (at least one tick) until cancelled.
  public func schedule(
    after date: AudioTime, interval: AudioTime.Stride, tolerance: AudioTime.Stride, options: Never?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    let repeating = RepeatingAction(interval: max(interval, AudioTime.Stride(ticks: 1)), action: action)
    schedule(after: date, tolerance: tolerance, options: nil) { [weak self] in self?.fire(repeating) }
    return repeating
  }

  private func fire(_ repeating: RepeatingAction) {
    guard !repeating.isCancelled else { return }
    let next = now.advanced(by: repeating.interval)
    schedule(after: next, tolerance: .zero, options: nil) { [weak self] in self?.fire(repeating) }
    repeating.action()
  }

  /// Runs, in time order, every action due before `end` (including those the actions schedule),
  /// then moves the clock to `end`.
  public func advance(to end: AudioTime) {
    while let action = lock.withLock({ () -> (() -> Void)? in
      guard let due = queue.popEarliest(before: end) else { return nil }
      current = max(current, due.time)
      return due.action
    }) {
      action()
    }
    lock.withLock { current = max(current, end) }
  }
}

/// A repeating action and its cancellation flag, checked each time it comes due.
///
/// `@unchecked Sendable`: the flag is read and written under `lock`; the rest never changes.
private final class RepeatingAction: Cancellable, @unchecked Sendable {
  let interval: AudioTime.Stride
  let action: () -> Void
  private let lock = Lock()
  private var cancelled = false

  init(interval: AudioTime.Stride, action: @escaping () -> Void) {
    self.interval = interval
    self.action = action
  }

  var isCancelled: Bool { lock.withLock { cancelled } }

  func cancel() { lock.withLock { cancelled = true } }
}
