import CombineSchedulers
import OpenCombineShim

extension TestScheduler {
  /// A publisher that plays `events` for each subscriber, each time an offset from when it
  /// subscribed: RxTest's `createColdObservable`.
  public func createColdPublisher<Value, Failure: Error>(
    _ events: [Recorded<SchedulerTimeType.Stride, Value, Failure>]
  ) -> TestPublisher<SchedulerTimeType, Value, Failure> {
    TestPublisher(scheduler: self, cold: events, hot: [])
  }

  /// A publisher that plays `events` once, at their absolute times, to whoever is subscribed:
  /// RxTest's `createHotObservable`.
  public func createHotPublisher<Value, Failure: Error>(
    _ events: [Recorded<SchedulerTimeType, Value, Failure>]
  ) -> TestPublisher<SchedulerTimeType, Value, Failure> {
    TestPublisher(scheduler: self, cold: nil, hot: events)
  }

  /// Subscribes a recorder to `publisher` now; its events are stamped with this scheduler's time.
  public func record<P: Publisher>(_ publisher: P) -> TestRecorder<SchedulerTimeType, P.Output, P.Failure> {
    let recorder = TestRecorder<SchedulerTimeType, P.Output, P.Failure>(now: { self.now })
    publisher.subscribe(recorder)
    return recorder
  }

  /// Wraps this scheduler so that more than `maxActions` scheduled actions fail the test instead
  /// of hanging it: an endless timer, or one with a zero interval, stops after the limit.
  public func limited(
    toActions maxActions: Int = 100_000,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> LimitedScheduler<SchedulerTimeType, SchedulerOptions> {
    LimitedScheduler(
      base: self, maxActions: maxActions,
      origin: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}
