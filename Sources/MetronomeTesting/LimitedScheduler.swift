import CombineSchedulers
import IssueReporting
import OpenCombineShim

/// A `TestScheduler` that runs at most a fixed number of actions.
///
/// Past the limit it reports one failure at the line that created it and drops every further
/// action, cancelling repeating ones, so `advance` and `run` return even on an endless or
/// zero-interval timer.
public final class LimitedScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  /// The scheduler underneath; advance it as usual.
  public let base: TestScheduler<SchedulerTimeType, SchedulerOptions>
  private let maxActions: Int
  private let origin: SourceLocation
  /// How many actions have run through this wrapper.
  public private(set) var actionsRun = 0
  private var tripped = false

  init(base: TestScheduler<SchedulerTimeType, SchedulerOptions>, maxActions: Int, origin: SourceLocation) {
    self.base = base
    self.maxActions = maxActions
    self.origin = origin
  }

  /// The scheduler's current time.
  public var now: SchedulerTimeType { base.now }
  /// The smallest tolerance it honours.
  public var minimumTolerance: SchedulerTimeType.Stride { base.minimumTolerance }

  /// Runs `action` as soon as possible.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    base.schedule(options: options) { [weak self] in _ = self?.run(action) }
  }

  /// Runs `action` at `date`.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) {
    base.schedule(after: date, tolerance: tolerance, options: options) { [weak self] in _ = self?.run(action) }
  }

  /// Runs `action` at `date`, then every `interval` until cancelled.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    let repeating = RepeatingToken()
    repeating.cancellable = base.schedule(after: date, interval: interval, tolerance: tolerance, options: options) {
      [weak self] in
      if self?.run(action) != true { repeating.cancel() }
    }
    return repeating
  }

  /// Runs `action` unless the limit is spent; false once it is.
  private func run(_ action: () -> Void) -> Bool {
    guard !tripped else { return false }
    guard actionsRun < maxActions else {
      tripped = true
      reportIssue(
        "Virtual time ran away: more than \(maxActions) scheduled actions ran."
          + " Is a timer endless, or its interval zero? Advance by a bounded time instead of run().",
        fileID: origin.fileID, filePath: origin.filePath, line: origin.line, column: origin.column
      )
      return false
    }
    actionsRun += 1
    action()
    return true
  }
}

/// Holds a repeating action's cancellable, which exists only after scheduling returns.
private final class RepeatingToken: Cancellable {
  var cancellable: (any Cancellable)?
  func cancel() { cancellable?.cancel() }
}
