import Dispatch
import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct LockTests {
  @Test func serialisesUpdatesFromManyThreads() {
    // `@unchecked Sendable`: that `value` is touched only under `lock` is what this test checks.
    final class Counter: @unchecked Sendable {
      let lock = Lock()
      var value = 0
    }
    let counter = Counter()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<10_000 { counter.lock.withLock { counter.value += 1 } }
    }
    #expect(counter.value == 80_000)
  }

  @Test func aRecursiveLockCanBeTakenAgainByItsHolder() {
    let lock = Lock(recursive: true)
    let inner = lock.withLock { lock.withLock { 42 } }
    #expect(inner == 42)
  }

  @Test func rethrowsWhatTheBodyThrowsAndReleasesTheLock() {
    struct Failure: Error {}
    let lock = Lock()
    #expect(throws: Failure.self) { try lock.withLock { throw Failure() } }
    #expect(lock.withLock { true })
  }

  /// While another thread holds the lock, the render thread's try takes nothing and runs
  /// nothing; once it is let go, the try runs, and lets it go again.
  @Test func aTryWhileAnotherThreadHoldsTheLockRunsNothing() {
    let lock = Lock()
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      lock.withLock {
        holding.signal()
        release.wait()
      }
      done.signal()
    }
    holding.wait()
    var ran = false
    #expect(lock.withLockIfAvailable { ran = true } == nil)
    #expect(!ran)
    release.signal()
    done.wait()
    #expect(lock.withLockIfAvailable { 7 } == 7)
    #expect(lock.withLockIfAvailable { 8 } == 8)
    #expect(lock.withLock { 9 } == 9)
  }

  /// The holder's own try on a lock that is not recursive takes nothing either.
  @Test func aTryByTheHolderOfAPlainLockRunsNothing() {
    let lock = Lock()
    #expect(lock.withLock { lock.withLockIfAvailable { 1 } } == nil)
    let recursive = Lock(recursive: true)
    #expect(recursive.withLock { recursive.withLockIfAvailable { 1 } } == 1)
  }
}
