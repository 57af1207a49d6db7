import CombineSchedulers
import Foundation
import MetronomeTesting
import OpenCombineShim
import Testing

@Suite(.timeLimit(.minutes(1)))
struct LimitedSchedulerTests {
  @Test func aZeroIntervalTimerFailsTheTestInsteadOfHanging() {
    let base = DispatchQueue.test
    let limited = base.limited(toActions: 1_000)
    var ticks = 0
    let timer = Publishers.Timer(every: .zero, scheduler: limited).autoconnect().sink { _ in ticks += 1 }
    withKnownIssue {
      base.run()
    } matching: { issue in
      String(describing: issue).contains("Virtual time ran away: more than 1000 scheduled actions ran")
    }
    #expect(ticks == 1_000)
    timer.cancel()
  }

  @Test func boundedWorkRunsUntouched() {
    let base = DispatchQueue.test
    let limited = base.limited(toActions: 10)
    var fired: [Int] = []
    for n in 1...10 { limited.schedule(after: base.now.advanced(by: .seconds(n))) { fired.append(n) } }
    base.run()
    #expect(fired == Array(1...10))
    #expect(limited.actionsRun == 10)
  }
}
