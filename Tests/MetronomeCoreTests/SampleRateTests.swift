import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct SampleRateTests {
  @Test(arguments: [8_000, 11_025, 22_050, 44_100, 48_000, 88_200, 96_000, 192_000])
  func commonRatesDivideTheClock(hz: Int) throws {
    let rate = try SampleRate(hz)
    #expect(rate.ticksPerFrame * Int64(hz) == SampleRate.clockTicksPerSecond)
  }

  /// Outside 8 to 192 kHz a rate is refused even where it divides the clock (352.8 kHz does).
  @Test(arguments: [0, -48_000, 7_999, 12_345, 352_800, 384_000, 10_000_000])
  func otherRatesAreRejected(hz: Int) {
    #expect(throws: SampleRateError(hz: hz)) { try SampleRate(hz) }
  }
}
