import Dispatch
import Glibc
import MetronomeAudio
import MetronomeSession
import Synchronization
import Testing

/// What ran on a loop, in order, and on which thread.
private final class RunLog: Sendable {
  private let entries = Mutex<[(name: String, thread: pthread_t)]>([])
  private let ranOne = DispatchSemaphore(value: 0)

  func record(_ name: String) {
    entries.withLock { $0.append((name, pthread_self())) }
    ranOne.signal()
  }

  /// Waits until `count` more actions have run; false if they do not within a minute.
  func waitFor(_ count: Int) -> Bool {
    (0..<count).allSatisfy { _ in ranOne.wait(timeout: .now() + 60) == .success }
  }

  var names: [String] { entries.withLock { $0.map(\.name) } }
  var threads: Set<pthread_t> { entries.withLock { Set($0.map(\.thread)) } }
}

/// The loop runs forever on a thread of its own, as on the process's main thread; each test's
/// thread stays parked in it once the test is done.
private func startLoop(_ loop: MainLoop) -> pthread_t {
  let started = Mutex<pthread_t>(0)
  let ready = DispatchSemaphore(value: 0)
  DispatchQueue(label: "main-loop-test").async {
    started.withLock { $0 = pthread_self() }
    ready.signal()
    loop.run()
  }
  ready.wait()
  return started.withLock { $0 }
}

@Suite(.timeLimit(.minutes(1)))
struct MainLoopTests {
  /// Actions already due run in the order of their times, not of their scheduling, one at a time
  /// on the loop's thread.
  @Test func dueActionsRunInTimeOrderOnTheLoopsThread() {
    let loop = MainLoop()
    let log = RunLog()
    for (name, microseconds) in [("third", 3), ("second", 2), ("first", 1)] {
      loop.schedule(after: AudioTime(seconds: Double(microseconds) / 1e6)) { log.record(name) }
    }
    let loopThread = startLoop(loop)

    #expect(log.waitFor(3))
    #expect(log.names == ["first", "second", "third"])
    #expect(log.threads == [loopThread])
  }

  /// While the loop waits for an action far ahead, one scheduled from another thread for now
  /// wakes it and runs first; so does one scheduled while it waits with nothing to do.
  @Test func anEarlierActionFromAnotherThreadWakesTheLoop() {
    let loop = MainLoop()
    let log = RunLog()
    loop.schedule(after: AudioTime(seconds: 3_600)) { log.record("in an hour") }
    let loopThread = startLoop(loop)

    DispatchQueue.global().async { loop.schedule { log.record("now") } }
    #expect(log.waitFor(1))
    #expect(log.names == ["now"])
    #expect(loop.now < AudioTime(seconds: 3_600))
    #expect(log.threads == [loopThread])
  }
}
