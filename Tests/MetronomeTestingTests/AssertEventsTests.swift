import CombineSchedulers
import Foundation
import MetronomeTesting
import OpenCombineShim
import Testing

@Suite(.timeLimit(.minutes(1)))
struct AssertEventsTests {
  let scheduler = DispatchQueue.test

  @Test func passesOnTheSameTimeline() {
    let recorder = scheduler.record(Just(1))
    assertEvents(recorder, [.next(scheduler.now, 1), .finished(scheduler.now)])
  }

  @Test func failsWithADiffOfTheTimelines() {
    let recorder = scheduler.record(Just(1))
    withKnownIssue {
      assertEvents(recorder, [.next(scheduler.now, 2), .finished(scheduler.now)])
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("Recorded events differ") && text.contains("-     event: .next(2)")
        && text.contains("+     event: .next(1)")
    }
  }

  @Test func subscriptionsAreCheckedTheSameWay() {
    let source = scheduler.createColdPublisher(
      [.finished(.zero)] as [Recorded<DispatchQueue.SchedulerTimeType.Stride, Int, Never>])
    _ = scheduler.record(source)
    scheduler.advance()
    assertSubscriptions(source, [SubscriptionLog(subscribed: scheduler.now, ended: scheduler.now)])
    withKnownIssue {
      assertSubscriptions(source, [SubscriptionLog(subscribed: scheduler.now)])
    }
  }
}
