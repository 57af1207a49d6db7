import AudioListening
import Testing

@Suite(.timeLimit(.minutes(5))) struct DoubtedPeriodsTests {
  /// What `hear` was given: each period's samples and run frame, in order.
  private final class Heard {
    var periods: [(samples: [Float], first: Int64)] = []
    func hear(_ period: UnsafeBufferPointer<Float>, _ first: Int64) { periods.append((Array(period), first)) }
    var firsts: [Int64] { periods.map(\.first) }
    /// The number of each period heard, read from its samples, or -1 for one not as given.
    var numbers: [Int] {
      periods.map { period in
        let number = Int(period.samples.first ?? -10) / 10
        return period.samples == Self.samples(of: number, frames: period.samples.count) ? number : -1
      }
    }
    /// The samples of the period numbered `number`: 10 times it, then one more each.
    static func samples(of number: Int, frames: Int) -> [Float] { (0..<frames).map { Float(number * 10 + $0) } }
  }

  /// Gives `periods` the period numbered `number` (`Heard.samples`), placed on `number * 4` (nil
  /// when `placed` is false).
  private func take(
    _ number: Int, into periods: DoubtedPeriods, doubted: Bool, moved: Bool = false, placed: Bool = true,
    frames: Int = 4, heard: Heard
  ) {
    let samples = Heard.samples(of: number, frames: frames)
    samples.withUnsafeBufferPointer {
      periods.take($0, placedAt: placed ? Int64(number * 4) : nil, doubted: doubted, moved: moved, hear: heard.hear)
    }
  }

  @Test func aSteadyInputIsHeardAsSoonAsItIsRead() {
    let periods = DoubtedPeriods(frames: 4)
    let heard = Heard()
    for number in 0..<3 {
      take(number, into: periods, doubted: false, heard: heard)
      #expect(heard.periods.count == number + 1 && periods.count == 0)
    }
    #expect(heard.firsts == [0, 4, 8] && heard.numbers == [0, 1, 2])
  }

  /// One or two readings late, then one that agrees (a reader woken late): the periods read
  /// meanwhile are held, then heard in order as they were placed, with their own samples.
  @Test(arguments: [1, 2]) func periodsReadWhileInDoubtAreHeardAsPlacedOnceAReadingAgrees(late: Int) {
    let periods = DoubtedPeriods(frames: 4)
    let heard = Heard()
    take(0, into: periods, doubted: false, heard: heard)
    for number in 1...late {
      take(number, into: periods, doubted: true, heard: heard)
      #expect(heard.periods.count == 1 && periods.count == number)
    }
    take(late + 1, into: periods, doubted: false, heard: heard)
    #expect(heard.firsts == (0...late + 1).map { Int64($0 * 4) })
    #expect(heard.numbers == Array(0...late + 1))
    #expect(periods.count == 0)
  }

  /// The stream said it moved: what was held is never heard, nor is the period itself while the
  /// clock places nothing, and what is placed after is heard at once.
  @Test func whatWasHeldWhenTheStreamMovedIsNeverHeard() {
    let periods = DoubtedPeriods(frames: 4)
    let heard = Heard()
    take(0, into: periods, doubted: false, heard: heard)
    take(1, into: periods, doubted: true, heard: heard)
    take(2, into: periods, doubted: true, heard: heard)
    take(3, into: periods, doubted: false, moved: true, placed: false, heard: heard)
    take(4, into: periods, doubted: false, placed: false, heard: heard)
    take(5, into: periods, doubted: false, heard: heard)
    #expect(heard.firsts == [0, 20] && periods.count == 0)
  }

  /// Still in doubt with the room full (readings the device could not give in time add none): the
  /// oldest is heard as placed, so nothing waits past two periods.
  @Test func theOldestIsHeardWhenTheRoomIsFull() {
    let periods = DoubtedPeriods(frames: 4)
    let heard = Heard()
    for number in 0..<4 { take(number, into: periods, doubted: true, heard: heard) }
    #expect(heard.firsts == [0, 4] && heard.numbers == [0, 1] && periods.count == 2)
    take(4, into: periods, doubted: false, heard: heard)
    #expect(heard.firsts == [0, 4, 8, 12, 16] && heard.numbers == [0, 1, 2, 3, 4])
  }

  /// A period the clock could not place keeps what was held; one longer than the room is heard at
  /// once, after what was held.
  @Test func anUnplacedPeriodKeepsWhatIsHeldAndALongOneIsHeardAfterIt() {
    let periods = DoubtedPeriods(frames: 4)
    let heard = Heard()
    take(0, into: periods, doubted: true, heard: heard)
    take(1, into: periods, doubted: true, placed: false, heard: heard)
    #expect(heard.periods.isEmpty && periods.count == 1)
    take(2, into: periods, doubted: true, frames: 5, heard: heard)
    #expect(heard.firsts == [0, 8] && heard.numbers == [0, 2] && periods.count == 0)
  }

  /// No period read after a sound server skipped a cycle is heard before the stream is placed anew.
  ///
  /// The server skipped a cycle on a stalled machine: its readings, which agree to 30 µs, come back
  /// 21.33 ms later from the first period read after it. Read by `EarliestReading`, no period from
  /// that one on is heard where the old alignment would have placed it a cycle early; every one
  /// before it is heard. A reader woken late once is heard whole.
  @Test(arguments: [(skipped: true, at: 60), (skipped: true, at: 61), (skipped: false, at: 60)])
  func noPeriodReadAfterASkippedCycleIsHeardBeforeTheStreamIsSaidToHaveMoved(skipped: Bool, at skip: Int) {
    let periods = DoubtedPeriods(frames: 4)
    let heard = Heard()
    var readings = EarliestReading()
    let cycle = 21_333.0
    var moves: [Int] = []
    for number in 0..<80 {
      let now = 1_000_000 + Int64(Double(number) * cycle)
      let late = skipped ? (number >= skip ? cycle : 0) : (number == skip ? 6_000 : 0)
      let moved = readings.read(500_000 + late + (number % 3 == 0 ? 30 : 0), atMicros: now)
      if moved { moves.append(number) }
      // The clock places nothing from the move until the input has settled again.
      let placed = moves.isEmpty || number >= (moves.first ?? 0) + 30
      take(number, into: periods, doubted: readings.isDoubted, moved: moved, placed: placed, heard: heard)
    }
    if skipped {
      #expect(moves == [skip + 2])
      #expect(heard.firsts.filter { $0 >= skip * 4 }.allSatisfy { $0 >= (skip + 32) * 4 })
      #expect(heard.firsts.filter { $0 < skip * 4 } == (0..<skip).map { Int64($0 * 4) })
    } else {
      #expect(moves.isEmpty && heard.firsts == (0..<80).map { Int64($0 * 4) })
    }
  }
}
