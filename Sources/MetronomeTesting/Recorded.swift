import OpenCombineShim

/// What a publisher did: a value, or how it ended.
public enum TestEvent<Value, Failure: Error> {
  case next(Value)
  case finished
  case failure(Failure)

  /// The event as a Combine completion, if it is one.
  var completion: Subscribers.Completion<Failure>? {
    switch self {
    case .next: return nil
    case .finished: return .finished
    case .failure(let error): return .failure(error)
    }
  }
}

extension TestEvent: Equatable where Value: Equatable, Failure: Equatable {}

/// An event stamped with a time: an absolute scheduler time when recorded, or an offset from
/// the subscription in a cold publisher's script.
public struct Recorded<Time, Value, Failure: Error> {
  /// When it happened.
  public var time: Time
  /// What happened.
  public var event: TestEvent<Value, Failure>

  /// An event at a time.
  public init(time: Time, event: TestEvent<Value, Failure>) {
    self.time = time
    self.event = event
  }

  /// A value at `time`, RxTest's `.next(10, true)`.
  public static func next(_ time: Time, _ value: Value) -> Self { Self(time: time, event: .next(value)) }

  /// Normal completion at `time`.
  public static func finished(_ time: Time) -> Self { Self(time: time, event: .finished) }

  /// Failure with `error` at `time`.
  public static func failure(_ time: Time, _ error: Failure) -> Self { Self(time: time, event: .failure(error)) }

  /// The value, when the event is one.
  public var value: Value? {
    if case .next(let value) = event { return value }
    return nil
  }
}

extension Recorded: Equatable where Time: Equatable, Value: Equatable, Failure: Equatable {}

extension Recorded: CustomStringConvertible {
  /// How it reads in messages and test failures.
  public var description: String {
    switch event {
    case .next(let value): return "next(\(value)) @ \(time)"
    case .finished: return "finished @ \(time)"
    case .failure(let error): return "failure(\(error)) @ \(time)"
    }
  }
}
