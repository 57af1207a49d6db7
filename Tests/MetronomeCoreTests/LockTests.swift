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
}
