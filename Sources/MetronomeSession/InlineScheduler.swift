import MetronomeAudio
import OpenCombine

/// A scheduler that runs every action at once, on the caller's thread: the main queue of a
/// virtual run, where nothing waits and every beat is "heard" the moment it is rendered.
///
/// Repeating actions never run: nothing in a virtual run needs refreshing.
public struct InlineScheduler: Scheduler, Sendable {
  /// Its time never moves: nothing is ever waited for.
  public typealias SchedulerTimeType = AudioTime
  /// It takes no options.
  public typealias SchedulerOptions = Never

  /// A scheduler.
  public init() {}

  /// Always the start.
  public var now: AudioTime { 0 }

  /// No tolerance: actions run at once.
  public var minimumTolerance: AudioTime.Stride { .zero }

  /// Runs `action` at once.
  public func schedule(options: Never?, _ action: @escaping () -> Void) { action() }

  /// Runs `action` at once, whatever `date` says.
  public func schedule(
    after date: AudioTime, tolerance: AudioTime.Stride, options: Never?, _ action: @escaping () -> Void
  ) {
    action()
  }

  /// Never runs `action`.
  public func schedule(
    after date: AudioTime, interval: AudioTime.Stride, tolerance: AudioTime.Stride, options: Never?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    AnyCancellable {}
  }
}
