import CombineSchedulers
import OpenCombineShim

/// A publisher that plays a script of timed events on a `TestScheduler`, and logs its
/// subscriptions.
///
/// Cold ones replay the script for each subscriber, offset from its subscription;
/// hot ones play it once at absolute times to whoever is subscribed then. Values that arrive
/// while a subscriber has no outstanding demand are dropped, as a live source's would be.
public final class TestPublisher<Time: Strideable, Value, Failure: Error>: Publisher {
  /// The values it publishes.
  public typealias Output = Value

  /// Every subscription so far, in order.
  public private(set) var subscriptions: [SubscriptionLog<Time>] = []
  private let now: () -> Time
  private let scheduleAt: (Time, @escaping () -> Void) -> Void
  private let coldScript: [Recorded<Time.Stride, Value, Failure>]?
  private var hotSubscribers: [(TestEvent<Value, Failure>) -> Void] = []

  init<Options>(
    scheduler: TestScheduler<Time, Options>,
    cold: [Recorded<Time.Stride, Value, Failure>]?,
    hot: [Recorded<Time, Value, Failure>]
  ) {
    now = { scheduler.now }
    scheduleAt = { time, action in scheduler.schedule(after: time, action) }
    coldScript = cold
    for recorded in hot {
      scheduler.schedule(after: recorded.time) { [weak self] in
        for deliver in self?.hotSubscribers ?? [] { deliver(recorded.event) }
      }
    }
  }

  /// Attaches `subscriber` and plays the script to it.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Failure {
    let index = subscriptions.count
    let subscribedAt = now()
    subscriptions.append(SubscriptionLog(subscribed: subscribedAt))
    let subscription = ScriptedSubscription(subscriber) { [weak self] in
      guard let self, self.subscriptions[index].ended == nil else { return }
      self.subscriptions[index].ended = self.now()
    }
    subscriber.receive(subscription: subscription)
    if let coldScript {
      for recorded in coldScript {
        scheduleAt(subscribedAt.advanced(by: recorded.time)) { subscription.deliver(recorded.event) }
      }
    } else {
      hotSubscribers.append(subscription.deliver)
    }
  }
}

/// One subscriber's view of a scripted publisher: tracks its demand and its end.
private final class ScriptedSubscription<S: Subscriber>: Subscription {
  let combineIdentifier = CombineIdentifier()
  private var subscriber: S?
  private var demand = Subscribers.Demand.none
  private let onEnd: () -> Void

  init(_ subscriber: S, onEnd: @escaping () -> Void) {
    self.subscriber = subscriber
    self.onEnd = onEnd
  }

  func request(_ demand: Subscribers.Demand) { self.demand += demand }

  func cancel() {
    guard subscriber != nil else { return }
    subscriber = nil
    onEnd()
  }

  func deliver(_ event: TestEvent<S.Input, S.Failure>) {
    guard let subscriber else { return }
    switch event {
    case .next(let value):
      guard demand > 0 else { return }
      demand -= 1
      demand += subscriber.receive(value)
    case .finished, .failure:
      self.subscriber = nil
      onEnd()
      if let completion = event.completion { subscriber.receive(completion: completion) }
    }
  }
}
