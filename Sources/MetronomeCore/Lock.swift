import Glibc

/// A mutual-exclusion lock over a pthread mutex, for state shared between the render thread, the
/// main queue and signal handlers.
///
/// It stands in for Foundation's `NSLock` and `NSRecursiveLock`,
/// which would load all of Foundation (and its ICU data) into a process that needs none of it.
///
/// `@unchecked Sendable`: the mutex is made for use from many threads; the pointer to it never changes.
public final class Lock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  /// A lock; a `recursive` one may be taken again by the thread that holds it.
  public init(recursive: Bool = false) {
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    if recursive { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)) }
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` while holding the lock.
  public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }

  /// Runs `body` while holding the lock if no other thread holds it, else nothing: for the render
  /// thread, which must never wait.
  public func withLockIfAvailable<Result>(_ body: () throws -> Result) rethrows -> Result? {
    guard pthread_mutex_trylock(mutex) == 0 else { return nil }
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
