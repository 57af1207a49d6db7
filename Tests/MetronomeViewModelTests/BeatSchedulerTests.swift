import CombineSchedulers
import MetronomeAudio
import MetronomeViewModel
import OpenCombineShim
import Testing

@Suite(.timeLimit(.minutes(1)))
struct BeatSchedulerTests {
  @Test func forwardsTimeAndActionsToTheSchedulerItWraps() {
    let wrapped = TestScheduler<AudioTime, Never>(now: 2)
    let scheduler = wrapped.eraseToBeatScheduler()
    var ran: [AudioTime] = []
    scheduler.schedule { ran.append(scheduler.now) }
    scheduler.schedule(after: 2.5) { ran.append(scheduler.now) }
    #expect(scheduler.now == 2)

    wrapped.advance(by: 1)

    #expect(ran == [2, 2.5])
    #expect(scheduler.now == 3)
    #expect(scheduler.minimumTolerance == wrapped.minimumTolerance)
  }

  @Test func repeatsAtItsIntervalUntilCancelled() {
    let wrapped = TestScheduler<AudioTime, Never>(now: 0)
    let scheduler = BeatScheduler(wrapped)
    var ticks: [AudioTime] = []
    let repeating = scheduler.schedule(after: 0.5, interval: 0.25) { ticks.append(scheduler.now) }

    wrapped.advance(by: 1)
    repeating.cancel()
    wrapped.advance(by: 1)

    #expect(ticks == [0.5, 0.75, 1])
  }

  @Test func deliversValuesOnTheWrappedSchedulersClock() {
    let wrapped = TestScheduler<AudioTime, Never>(now: 0)
    var received: [Int] = []
    let subscription = Just(7).delay(for: 0.5, scheduler: wrapped.eraseToBeatScheduler()).sink { received.append($0) }
    wrapped.advance(by: 0.4)
    #expect(received.isEmpty)
    wrapped.advance(by: 0.1)
    #expect(received == [7])
    subscription.cancel()
  }
}
