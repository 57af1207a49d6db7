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

  /// A stride's arithmetic is its ticks' arithmetic, and its units are what they say.
  @Test func stridesAddSubtractCompareAndConvert() {
    let second = AudioTime.Stride.seconds(1)
    #expect(AudioTime.Stride.milliseconds(1_500) == .seconds(1.5))
    #expect(AudioTime.Stride.microseconds(250_000) == .seconds(0.25))
    #expect(AudioTime.Stride.nanoseconds(2_000_000_000) == .seconds(2))
    #expect((second + .milliseconds(500)).seconds == 1.5)
    #expect((second - .milliseconds(250)).seconds == 0.75)
    #expect((AudioTime.Stride(ticks: 3) * AudioTime.Stride(ticks: 4)).ticks == 12)
    var stride = second
    stride += .milliseconds(500)
    #expect(stride.seconds == 1.5)
    stride -= .seconds(1)
    #expect(stride.seconds == 0.5)
    stride = AudioTime.Stride(ticks: 5)
    stride *= AudioTime.Stride(ticks: 3)
    #expect(stride.ticks == 15)
    #expect(AudioTime.Stride.milliseconds(999) < second)
    #expect(!(second < second))
    #expect(AudioTime.Stride.seconds(-2).magnitude == .seconds(2))
  }

  /// Times move by strides, and the distance between two is the stride that moves one to the other.
  @Test func timesAdvanceByStridesAndMeasureTheirDistance() {
    let start = AudioTime(seconds: 2)
    let later = start.advanced(by: .milliseconds(750))
    #expect(later.seconds == 2.75)
    #expect(start.distance(to: later) == .milliseconds(750))
    #expect(later.distance(to: start) == .milliseconds(-750))
  }

  /// A frame before the clock's start is a time before it, and a whole-second literal counts from 0.
  @Test func negativeFramesAndSecondsLiteralsAreTimesToo() throws {
    let rate = try SampleRate(48_000)
    #expect(AudioTime(frame: -48_000, sampleRate: rate).seconds == -1)
    #expect(AudioTime(frame: 0, sampleRate: rate).ticks == 0)
    let three: AudioTime = 3
    #expect(three.seconds == 3)
    #expect(AudioTime.Stride.seconds(-1).seconds == -1)
    #expect(AudioTime.Stride.seconds(0).ticks == 0)
  }
}
