import Foundation
import IssueReporting
import OpenCombineShim

/// A subscriber for publishers on real time that records what it receives and lets a test wait,
/// with a timeout, until a number of records has arrived.
///
/// Safe to feed from any thread.
///
/// `@unchecked Sendable`: what it has received is read and written only under `condition`.
public final class BlockingRecorder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
  /// One thing received.
  public enum Record {
    case value(Input)
    case completion(Subscribers.Completion<Failure>)
  }

  /// Identifies this subscriber to its publisher.
  public let combineIdentifier = CombineIdentifier()
  private let expectedCount: Int
  private let condition = NSCondition()
  private var storage: [Record] = []

  /// A recorder that `waitForAllValues` releases once `numberOfRecords` records have arrived.
  public init(numberOfRecords: Int) {
    precondition(numberOfRecords > 0, "numberOfRecords must be at least 1")
    expectedCount = numberOfRecords
  }

  /// What has arrived so far.
  public var records: [Record] { condition.withLock { storage } }

  /// The values that have arrived so far.
  public var values: [Input] {
    records.compactMap { if case .value(let value) = $0 { value } else { nil } }
  }

  /// Takes the subscription and asks for every value.
  public func receive(subscription: any Subscription) { subscription.request(.unlimited) }

  /// Records a value.
  public func receive(_ input: Input) -> Subscribers.Demand {
    append(.value(input))
    return .none
  }

  /// Records the completion.
  public func receive(completion: Subscribers.Completion<Failure>) { append(.completion(completion)) }

  private func append(_ record: Record) {
    condition.withLock {
      storage.append(record)
      condition.broadcast()
    }
  }

  /// Blocks until the expected number of records has arrived, or fails the test at the caller
  /// after `timeout` seconds: "Waiting for 2 values timed out. Received only 1 value."
  public func waitForAllValues(
    timeout: TimeInterval = 1,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let deadline = Date(timeIntervalSinceNow: timeout)
    let received = condition.withLock {
      while storage.count < expectedCount, condition.wait(until: deadline) {}
      return storage.count
    }
    guard received < expectedCount else { return }
    reportIssue(
      "Waiting for \(Self.count(expectedCount)) timed out. Received only \(Self.count(received)).",
      fileID: fileID, filePath: filePath, line: line, column: column
    )
  }

  private static func count(_ n: Int) -> String { n == 1 ? "1 value" : "\(n) values" }
}

extension BlockingRecorder.Record: Equatable where Input: Equatable, Failure: Equatable {}

extension Publisher {
  /// Subscribes a blocking recorder that waits for `numberOfRecords` records.
  public func record(numberOfRecords: Int) -> BlockingRecorder<Output, Failure> {
    let recorder = BlockingRecorder<Output, Failure>(numberOfRecords: numberOfRecords)
    subscribe(recorder)
    return recorder
  }
}
