import MetronomeAudio
import MetronomeCore
import OpenCombine

extension Scheduler where Self: AnyObject & Sendable, SchedulerTimeType == AudioTime, SchedulerOptions == Never {
  /// Runs `action` at `date` and then every `interval` (at least one tick) after the time it last
  /// ran, until cancelled: the repeating schedule of the project's own schedulers, built on their
  /// one-off one.
  public func scheduleRepeating(
    after date: AudioTime, interval: AudioTime.Stride, _ action: @escaping () -> Void
  ) -> any Cancellable {
    let repeating = RepeatingAction(interval: max(interval, AudioTime.Stride(ticks: 1)), action: action)
    schedule(after: date) { [weak self] in self?.fire(repeating) }
    return repeating
  }

  private func fire(_ repeating: RepeatingAction) {
    guard !repeating.isCancelled else { return }
    schedule(after: now.advanced(by: repeating.interval)) { [weak self] in self?.fire(repeating) }
    repeating.action()
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
