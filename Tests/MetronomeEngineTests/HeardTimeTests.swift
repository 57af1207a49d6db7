import MetronomeCore
import MetronomeEngine
import Testing

@Suite(.timeLimit(.minutes(1)))
struct HeardTimeTests {
  /// Readings of a device whose frame 0 is heard at `zero` µs on the host's clock, one every
  /// 1024 frames at 48 kHz, each read `delay` frames before its frame is heard plus `late(i)`
  /// µs of jitter, and `drift` µs more a second; returns the estimate after each reading of the
  /// frame it read and what was true.
  private func estimates(
    count: Int, zero: Double = 5_000_000, delay: Int64 = 2_048, drift: Double = 0, late: (Int) -> Double
  ) -> [(estimate: Int64, truth: Double)] {
    var heard = HeardTime(sampleRate: .standard)
    return (0..<count).map { index in
      let frame = Int64(index) * 1_024
      let truth = zero + Double(frame) * 1_000 / 48 * (1 + drift / 1e6)
      let now = truth - Double(delay) * 1_000 / 48 + late(index)
      heard.read(frame: frame, heardInFrames: delay, atMicros: Int64(now.rounded()))
      return (heard.micros(ofFrame: frame) ?? 0, truth)
    }
  }

  /// A device whose delay reads up to 10 ms off, in steps as a sound server's does: after the
  /// first sixteen readings the estimate stays within 2.5 ms of the truth, less the readings' mean
  /// lateness, while they scatter over 10 ms.
  @Test func smoothsTheReadingsSteps() {
    let steps = [0.0, 5_333, 10_666, 5_333, 0, 10_666, 5_333, 0, 0, 10_666]
    let late = { (index: Int) in steps[index * 7 % steps.count] }
    let meanLateness = steps.reduce(0, +) / Double(steps.count)
    let errors = estimates(count: 400, late: late).dropFirst(16).map { Double($0.estimate) - $0.truth - meanLateness }
    #expect(errors.allSatisfy { abs($0) <= 2_500 }, "\(errors.map(\.magnitude).max() ?? 0) µs off")
  }

  /// The first sixteen readings are averaged, and each after moves the estimate a sixteenth.
  ///
  /// A reading exactly 50 ms off the estimate is one of them; one further off starts the
  /// estimate anew, and the reading after it is averaged with it, half and half.
  @Test func theFirstSixteenReadingsAreAveragedThenEachMovesItASixteenth() {
    var heard = HeardTime(sampleRate: .standard)
    // Frame 0 read as heard now: each reading is the time it was read.
    let read = { (micros: Int64) in heard.read(frame: 0, heardInFrames: 0, atMicros: micros) }
    for index in 0..<16 { read(1_000_000 + (index.isMultiple(of: 2) ? 0 : 1_600)) }
    #expect(heard.micros(ofFrame: 0) == 1_000_800)
    read(1_002_400)
    #expect(heard.micros(ofFrame: 0) == 1_000_900)
    read(1_050_900)
    #expect(heard.micros(ofFrame: 0) == 1_004_025)
    read(1_054_026)
    #expect(heard.micros(ofFrame: 0) == 1_054_026)
    read(1_055_026)
    #expect(heard.micros(ofFrame: 0) == 1_054_526)
  }

  /// No estimate before a reading; an exact reading gives the exact time of any frame.
  @Test func readsExactlyWhatAnExactDeviceSays() {
    var heard = HeardTime(sampleRate: .standard)
    #expect(heard.micros(ofFrame: 0) == nil)
    heard.read(frame: 48_000, heardInFrames: 4_800, atMicros: 1_000_000)
    #expect(heard.micros(ofFrame: 48_000) == 1_100_000)
    #expect(heard.micros(ofFrame: 96_000) == 2_100_000)
    // And the other way: the frame heard at a time, as a note stamped then is placed.
    #expect(heard.frame(atMicros: 1_100_000) == 48_000)
    #expect(heard.frame(atMicros: 2_100_010) == 96_000)
    #expect(heard.frame(atMicros: 2_100_011) == 96_001)
    #expect(HeardTime(sampleRate: .standard).frame(atMicros: 0) == nil)
  }

  /// A delay no device could have (a plugin's garbage) gives a time far off, never a trap.
  @Test func aWildDelayDoesNotTrap() {
    var heard = HeardTime(sampleRate: .standard)
    heard.read(frame: .max, heardInFrames: .max, atMicros: .max)
    #expect(heard.micros(ofFrame: .max) == 1 << 62)
    heard.read(frame: .max, heardInFrames: .min, atMicros: .min)
    #expect(heard.micros(ofFrame: .min) == -(1 << 62))
    #expect(heard.frame(atMicros: .max) != nil)
    // Frame 2^62 read as heard now puts frame 0 some 10^20 µs back: the frame heard at the last
    // microsecond is past 2^62 too, and held there; and the other way.
    var far = HeardTime(sampleRate: .standard)
    far.read(frame: 1 << 62, heardInFrames: 0, atMicros: 0)
    #expect(far.frame(atMicros: .max) == 1 << 62)
    #expect(far.frame(atMicros: 0) == 1 << 62)
    var early = HeardTime(sampleRate: .standard)
    early.read(frame: -(1 << 62), heardInFrames: 0, atMicros: 0)
    #expect(early.frame(atMicros: .min) == -(1 << 62))
  }

  /// A device clock 100 ppm slow against the host's (6 ms a minute apart) is followed: after ten
  /// minutes of readings the estimate is within 1 ms.
  @Test func followsADriftingDeviceClock() {
    let last = estimates(count: 28_125, drift: 100) { _ in 0 }.last
    #expect(abs(Double(last?.estimate ?? 0) - (last?.truth ?? 0)) < 1_000)
  }

  /// A stream that moved by 200 ms (a glitch) is taken at once, not smoothed over.
  @Test func takesAJumpAtOnce() {
    var heard = HeardTime(sampleRate: .standard)
    for index in 0..<32 {
      heard.read(frame: Int64(index) * 1_024, heardInFrames: 2_048, atMicros: Int64(index) * 21_333)
    }
    heard.read(frame: 32 * 1_024, heardInFrames: 2_048 + 9_600, atMicros: 32 * 21_333)
    let expected = 32 * 21_333 + (2_048 + 9_600) * 1_000 / 48
    #expect(abs((heard.micros(ofFrame: 32 * 1_024) ?? 0) - Int64(expected)) <= 1)
  }
}
