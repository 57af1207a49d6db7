import Foundation
import MetronomeAudio
import MetronomeEngine
import MetronomeViewModel
import OpenCombineShim
import Testing

@Suite(.timeLimit(.minutes(1)))
struct AudioClockSchedulerTests {
  @Test func runsDueActionsInTimeOrderWithNowAtEachActionsTime() {
    let clock = AudioClockScheduler()
    var log: [(String, AudioTime)] = []
    clock.schedule(after: 0.3) { log.append(("c", clock.now)) }
    clock.schedule(after: 0.1) { log.append(("a", clock.now)) }
    clock.schedule(after: 0.1) { log.append(("b", clock.now)) }
    clock.schedule(after: 0.5) { log.append(("late", clock.now)) }

    clock.advance(to: 0.5)

    #expect(log.map(\.0) == ["a", "b", "c"])
    #expect(log.map(\.1) == [0.1, 0.1, 0.3])
    #expect(clock.now == 0.5)
    #expect(clock.pendingCount == 1)
  }

  @Test func neverRunsBackwards() {
    let clock = AudioClockScheduler(start: 1)
    var ranAt: AudioTime?
    clock.schedule(after: 0.2) { ranAt = clock.now }
    clock.advance(to: 1.5)
    #expect(ranAt == 1)
  }

  @Test func actionsScheduledByActionsRunInTheSameAdvanceWhenDue() {
    let clock = AudioClockScheduler()
    var times: [AudioTime] = []
    func tick() {
      times.append(clock.now)
      clock.schedule(after: clock.now.advanced(by: 0.25)) { tick() }
    }
    clock.schedule { tick() }
    clock.advance(to: 1)
    #expect(times == [0, 0.25, 0.5, 0.75])
  }

  @Test func repeatingActionsStopWhenCancelledAndAZeroIntervalCannotSpin() {
    let clock = AudioClockScheduler()
    var count = 0
    let repeating = clock.schedule(after: 0, interval: .zero) { count += 1 }
    clock.advance(to: AudioTime(ticks: 5))
    #expect(count == 5)
    repeating.cancel()
    clock.advance(to: 1)
    #expect(count == 5)
  }

  @Test func acceptsWorkFromOtherThreads() {
    let clock = AudioClockScheduler()
    let counter = Counter()
    DispatchQueue.concurrentPerform(iterations: 1_000) { _ in clock.schedule { counter.increment() } }
    clock.advance(to: 1)
    #expect(counter.value == 1_000)
  }
}

/// A thread-safe count for the concurrency test.
///
/// `@unchecked Sendable`: the count is read and written only under `lock`.
private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
