import Glibc
import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import OpenCombine

/// The main queue of a live run: actions scheduled from any thread run one at a time, in time
/// order, on the thread that calls `run()` (the process's main thread), each at its time on the
/// monotonic clock.
///
/// It stands in for Dispatch's main queue there because every click tells the main queue when it
/// is heard. Here that costs one wake-up of a sleeping thread; Dispatch's one-off timers and the
/// worker threads that drain its main queue cost several (measured on this kind of machine: some
/// 60 µs of CPU a click against a few), which at 16 clicks a second was a quarter of the process's
/// CPU. Its time is an `AudioTime` counted from the loop's creation.
///
/// `@unchecked Sendable`: the queue is read and written only while holding `mutex`.
public final class MainLoop: Scheduler, @unchecked Sendable {
  /// Time is counted in `AudioTime`.
  public typealias SchedulerTimeType = AudioTime
  /// It takes no options.
  public typealias SchedulerOptions = Never

  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let wakeUp = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private let origin = MainLoop.monotonicNanoseconds()
  private var queue = ScheduledActionQueue(capacity: 64, now: 0)

  /// A loop with nothing scheduled, its time starting now.
  public init() {
    pthread_mutex_init(mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(wakeUp, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(wakeUp)
    pthread_mutex_destroy(mutex)
    wakeUp.deallocate()
    mutex.deallocate()
  }

  /// The time since the loop was created.
  public var now: AudioTime { .init(seconds: Double(Self.monotonicNanoseconds() - origin) / 1e9) }

  /// The smallest tolerance it honours.
  public var minimumTolerance: AudioTime.Stride { .zero }

  /// Runs `action` as soon as possible.
  public func schedule(options: Never?, _ action: @escaping () -> Void) { enqueue(action, at: now) }

  /// Runs `action` at `date`.
  public func schedule(
    after date: AudioTime, tolerance: AudioTime.Stride, options: Never?, _ action: @escaping () -> Void
  ) {
    enqueue(action, at: date)
  }

  /// Runs `action` at `date`, then every `interval` until cancelled.
  public func schedule(
    after date: AudioTime, interval: AudioTime.Stride, tolerance: AudioTime.Stride, options: Never?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    scheduleRepeating(after: date, interval: interval, action)
  }

  /// Runs the actions as they come due, for as long as the process runs: it ends by `exit`.
  ///
  /// The thread runs at the real-time priority that shows the beats, where the system allows it:
  /// an action is a beat's line or light, due when its click is heard.
  public func run() -> Never {
    RealtimePriority.raiseToShowTheBeats()
    pthread_mutex_lock(mutex)
    while true {
      if let action = queue.popEarliest(before: now.advanced(by: .init(ticks: 1))) {
        pthread_mutex_unlock(mutex)
        action()
        pthread_mutex_lock(mutex)
      } else if let earliest = queue.earliest {
        var deadline = deadline(of: earliest)
        pthread_cond_timedwait(wakeUp, mutex, &deadline)
      } else {
        pthread_cond_wait(wakeUp, mutex)
      }
    }
  }

  /// Queues `action` at `time`, waking the loop only when it now has to wake earlier.
  private func enqueue(_ action: @escaping () -> Void, at time: AudioTime) {
    pthread_mutex_lock(mutex)
    let wakesEarlier = queue.earliest.map { time < $0 } ?? true
    queue.insert(action, at: time)
    if wakesEarlier { pthread_cond_signal(wakeUp) }
    pthread_mutex_unlock(mutex)
  }

  /// `time` as a point on the monotonic clock, as `pthread_cond_timedwait` takes it.
  private func deadline(of time: AudioTime) -> timespec {
    // A time past what 64 bits of nanoseconds hold waits until then, as for ever.
    let (nanoseconds, overflow) = origin.addingReportingOverflow(
      Int64(clamping: (max(time.seconds, 0) * 1e9).rounded(.up)))
    guard !overflow else { return timespec(tv_sec: .max, tv_nsec: 0) }
    return timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
  }

  private static func monotonicNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }
}
