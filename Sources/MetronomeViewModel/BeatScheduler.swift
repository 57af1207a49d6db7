import MetronomeAudio
import OpenCombine

/// The scheduler beats are emitted on, with its concrete type erased: virtual time in tests, the
/// audio clock live.
///
/// It is the project's own eraser rather than combine-schedulers' `AnyScheduler`
/// so that the shipped binary links OpenCombine alone, not the Foundation (and libcurl) that
/// combine-schedulers brings; any OpenCombine scheduler on `AudioTime`, combine-schedulers'
/// `TestScheduler` included, can be wrapped.
///
/// `@unchecked Sendable`: it holds only closures over the wrapped scheduler, and is only as safe
/// to share as that scheduler is; both the audio clock and `TestScheduler` lock their state.
public struct BeatScheduler: Scheduler, @unchecked Sendable {
  /// Time is counted in `AudioTime`.
  public typealias SchedulerTimeType = AudioTime
  /// It takes no options.
  public typealias SchedulerOptions = Never

  private let currentTime: () -> AudioTime
  private let tolerance: () -> AudioTime.Stride
  private let runSoon: (Never?, @escaping () -> Void) -> Void
  private let runAfter: (AudioTime, AudioTime.Stride, Never?, @escaping () -> Void) -> Void
  private let repeatEvery:
    (AudioTime, AudioTime.Stride, AudioTime.Stride, Never?, @escaping () -> Void) -> any Cancellable

  /// Wraps `scheduler`; every call is forwarded to it.
  public init<Wrapped: Scheduler>(_ scheduler: Wrapped)
  where Wrapped.SchedulerTimeType == AudioTime, Wrapped.SchedulerOptions == Never {
    currentTime = { scheduler.now }
    tolerance = { scheduler.minimumTolerance }
    runSoon = scheduler.schedule(options:_:)
    runAfter = scheduler.schedule(after:tolerance:options:_:)
    repeatEvery = scheduler.schedule(after:interval:tolerance:options:_:)
  }

  /// The scheduler's current time.
  public var now: AudioTime { currentTime() }

  /// The smallest tolerance it honours.
  public var minimumTolerance: AudioTime.Stride { tolerance() }

  /// Runs `action` as soon as possible.
  public func schedule(options: Never?, _ action: @escaping () -> Void) { runSoon(options, action) }

  /// Runs `action` at `date`.
  public func schedule(
    after date: AudioTime, tolerance: AudioTime.Stride, options: Never?, _ action: @escaping () -> Void
  ) {
    runAfter(date, tolerance, options, action)
  }

  /// Runs `action` at `date`, then every `interval` until cancelled.
  public func schedule(
    after date: AudioTime, interval: AudioTime.Stride, tolerance: AudioTime.Stride, options: Never?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    repeatEvery(date, interval, tolerance, options, action)
  }
}

extension Scheduler where SchedulerTimeType == AudioTime, SchedulerOptions == Never {
  /// This scheduler as a `BeatScheduler`, ready to inject into the view model.
  public func eraseToBeatScheduler() -> BeatScheduler { BeatScheduler(self) }
}
