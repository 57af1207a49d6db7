import Synchronization

/// A count the render thread and the main queue both change.
final class SharedCount: Sendable {
  private let count = Mutex(0)

  /// Adds `delta`.
  func add(_ delta: Int) { count.withLock { $0 += delta } }

  /// The count now.
  var value: Int { count.withLock { $0 } }
}
