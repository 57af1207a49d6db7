import CombineSchedulers
import Foundation
import MetronomeTesting
import OpenCombineShim
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TestPublisherTests {
  let scheduler = DispatchQueue.test

  private func at(_ ms: Int) -> DispatchQueue.SchedulerTimeType {
    DispatchQueue.test.now.advanced(by: .milliseconds(ms))
  }

  @Test func coldReplaysTheScriptForEachSubscriberFromItsSubscription() {
    let source = scheduler.createColdPublisher(
      [.next(.milliseconds(100), 1), .finished(.milliseconds(200))]
        as [Recorded<DispatchQueue.SchedulerTimeType.Stride, Int, Never>])
    let first = scheduler.record(source)
    scheduler.advance(by: .milliseconds(50))
    let second = scheduler.record(source)
    scheduler.advance(by: .seconds(1))

    #expect(first.events == [.next(at(100), 1), .finished(at(200))])
    #expect(second.events == [.next(at(150), 1), .finished(at(250))])
    #expect(
      source.subscriptions == [
        SubscriptionLog(subscribed: at(0), ended: at(200)), SubscriptionLog(subscribed: at(50), ended: at(250)),
      ])
  }

  @Test func hotPlaysOnceToWhoeverIsSubscribed() {
    let source = scheduler.createHotPublisher(
      [.next(at(100), "a"), .next(at(300), "b")] as [Recorded<DispatchQueue.SchedulerTimeType, String, Never>])
    scheduler.advance(by: .milliseconds(200))
    let late = scheduler.record(source)
    scheduler.advance(by: .seconds(1))

    #expect(late.events == [.next(at(300), "b")])
  }

  @Test func cancellationIsLoggedAndStopsDelivery() {
    let source = scheduler.createColdPublisher(
      [.next(.milliseconds(100), 1), .next(.milliseconds(300), 2)]
        as [Recorded<DispatchQueue.SchedulerTimeType.Stride, Int, Never>])
    let recorder = scheduler.record(source)
    scheduler.advance(by: .milliseconds(200))
    recorder.cancel()
    scheduler.advance(by: .seconds(1))

    #expect(recorder.values == [1])
    #expect(source.subscriptions == [SubscriptionLog(subscribed: at(0), ended: at(200))])
  }

  @Test func failuresAreRecordedAndEquatable() {
    struct Boom: Error, Equatable {}
    let source = scheduler.createColdPublisher(
      [.next(.milliseconds(10), 1), .failure(.milliseconds(20), Boom())]
        as [Recorded<DispatchQueue.SchedulerTimeType.Stride, Int, Boom>])
    let recorder = scheduler.record(source)
    scheduler.advance(by: .seconds(1))

    #expect(recorder.events == [.next(at(10), 1), .failure(at(20), Boom())])
  }

  @Test func valuesWithoutDemandAreDropped() {
    let source = scheduler.createColdPublisher(
      [.next(.milliseconds(10), 1), .next(.milliseconds(20), 2), .next(.milliseconds(30), 3)]
        as [Recorded<DispatchQueue.SchedulerTimeType.Stride, Int, Never>])
    let recorder = scheduler.record(source.flatMap(maxPublishers: .max(1)) { Just($0 * 10) })
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [10, 20, 30])
  }
}
