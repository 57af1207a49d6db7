import MetronomeAudio
import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct AudioTimeTests {
  @Test func framesAreWholeTicksAtEveryRate() throws {
    for hz in [8_000, 44_100, 48_000, 96_000, 192_000] {
      let rate = try SampleRate(hz)
      let time = AudioTime(frame: 12_345, sampleRate: rate)
      #expect(time.frame(roundingUpAt: rate) == 12_345)
      #expect(AudioTime(ticks: time.ticks + 1).frame(roundingUpAt: rate) == 12_346)
    }
  }

  /// Times no run can reach are held to the clock's ends instead of trapping.
  @Test func conversionsPastTheClocksRangeSaturate() {
    #expect(AudioTime(seconds: 1e12).ticks == .max)
    #expect(AudioTime(seconds: -1e300).ticks == .min)
    #expect(AudioTime(seconds: .nan).ticks == 0)
    #expect(AudioTime(frame: .max, sampleRate: .standard).ticks == .max)
    #expect(AudioTime(frame: .min, sampleRate: .standard).ticks == .min)
    #expect(AudioTime.Stride.seconds(Int.max).ticks == .max)
    #expect(AudioTime.Stride.seconds(2).ticks == 2 * SampleRate.clockTicksPerSecond)
  }

  @Test func theLongestRunFitsTheClockAtTheHighestRate() throws {
    let rate = try SampleRate(192_000)
    let end = AudioTime(seconds: PlayLength.longestSeconds)
    #expect(end.ticks < .max / 10)
    #expect(end.frame(roundingUpAt: rate) == Int64(PlayLength.longestSeconds) * 192_000)
  }
}
