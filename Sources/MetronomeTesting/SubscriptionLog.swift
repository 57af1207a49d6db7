/// When a subscriber subscribed to a test publisher and when that subscription ended (by
/// cancellation or completion), RxTest's `Subscription(200, 1000)`.
public struct SubscriptionLog<Time> {
  /// When the subscriber subscribed.
  public var subscribed: Time
  /// When the subscription was cancelled or completed; nil while it is live.
  public var ended: Time?

  /// A log entry.
  public init(subscribed: Time, ended: Time? = nil) {
    self.subscribed = subscribed
    self.ended = ended
  }
}

extension SubscriptionLog: Equatable where Time: Equatable {}

extension SubscriptionLog: CustomStringConvertible {
  /// How it reads in messages and test failures.
  public var description: String { "(\(subscribed) : \(ended.map { "\($0)" } ?? "live"))" }
}
