import Foundation
import OpenCombineShim

/// Why `awaitOutput` returned no value.
public enum AwaitOutputError: Error, Equatable, CustomStringConvertible {
  /// The publisher produced nothing within the timeout.
  case timedOut(seconds: TimeInterval)
  /// The publisher finished without a value.
  case finishedWithoutOutput

  /// How it reads in messages and test failures.
  public var description: String {
    switch self {
    case .timedOut(let seconds): return "Awaited publisher produced no output within \(seconds) s"
    case .finishedWithoutOutput: return "Awaited publisher finished without output"
    }
  }
}

/// Blocks until `publisher` completes, then returns its last value or throws its failure;
/// throws `AwaitOutputError` on a timeout or when it finished with no value. (Swift reserves
/// `await`, so the seed article's `await(_:timeout:)` is spelled `awaitOutput` here.)
public func awaitOutput<P: Publisher>(_ publisher: P, timeout: TimeInterval = 1) throws -> P.Output {
  let outcome = AwaitedOutcome<P.Output>()
  let subscription = publisher.sink(
    receiveCompletion: { completion in
      switch completion {
      case .finished: outcome.finish(with: nil)
      case .failure(let error): outcome.finish(with: error)
      }
    },
    receiveValue: { outcome.latest($0) }
  )
  defer { subscription.cancel() }
  return try outcome.wait(timeout: timeout)
}

/// The last value and the ending of an awaited publisher, shared with the thread it runs on.
///
/// `@unchecked Sendable`: the value and the ending are read and written only under `condition`.
private final class AwaitedOutcome<Output>: @unchecked Sendable {
  private let condition = NSCondition()
  private var value: Output?
  private var ending: (any Error)??

  func latest(_ output: Output) { condition.withLock { value = output } }

  func finish(with error: (any Error)?) {
    condition.withLock {
      ending = .some(error)
      condition.broadcast()
    }
  }

  func wait(timeout: TimeInterval) throws -> Output {
    let deadline = Date(timeIntervalSinceNow: timeout)
    return try condition.withLock {
      while ending == nil, condition.wait(until: deadline) {}
      guard let ending else { throw AwaitOutputError.timedOut(seconds: timeout) }
      if let error = ending { throw error }
      guard let value else { throw AwaitOutputError.finishedWithoutOutput }
      return value
    }
  }
}
