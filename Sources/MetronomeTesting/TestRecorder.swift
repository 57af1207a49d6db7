import CombineSchedulers
import OpenCombineShim

/// A subscriber that stamps every value and completion with its scheduler's time, RxTest's
/// `TestableObserver`.
///
/// It requests unlimited demand.
public final class TestRecorder<Time, Value, Failure: Error>: Subscriber, Cancellable {
  /// The values it records.
  public typealias Input = Value

  /// Identifies this subscriber to its publisher.
  public let combineIdentifier = CombineIdentifier()
  /// Everything received so far, stamped with the scheduler's time.
  public private(set) var events: [Recorded<Time, Value, Failure>] = []
  private let now: () -> Time
  private var subscription: (any Subscription)?

  /// A recorder stamping with `now`.
  public init(now: @escaping () -> Time) { self.now = now }

  /// The values received so far, without their times.
  public var values: [Value] { events.compactMap(\.value) }

  /// Takes the subscription and asks for every value.
  public func receive(subscription: any Subscription) {
    self.subscription = subscription
    subscription.request(.unlimited)
  }

  /// Records a value.
  public func receive(_ input: Value) -> Subscribers.Demand {
    events.append(.next(now(), input))
    return .none
  }

  /// Records the completion.
  public func receive(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished: events.append(.finished(now()))
    case .failure(let error): events.append(.failure(now(), error))
    }
    subscription = nil
  }

  /// Stops recording and cancels the subscription.
  public func cancel() {
    subscription?.cancel()
    subscription = nil
  }
}
