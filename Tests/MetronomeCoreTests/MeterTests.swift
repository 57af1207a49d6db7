import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct MeterTests {
  @Test func parsesSignatures() throws {
    #expect(try Meter(parsing: "7/8") == Meter(7, 8))
    #expect(try Meter(parsing: "4/4").signature == "4/4")
  }

  @Test func rejectsWhatIsNotAMeter() {
    #expect(throws: MeterError.denominatorNotPowerOfTwo(3)) { try Meter(parsing: "7/3") }
    #expect(throws: MeterError.numeratorTooSmall(0)) { try Meter(parsing: "0/4") }
    #expect(throws: MeterError.unreadable("abc")) { try Meter(parsing: "abc") }
    #expect(throws: MeterError.unreadable("4/")) { try Meter(parsing: "4/") }
    #expect(throws: MeterError.numeratorOverCap(numerator: 5, denominator: 4, maximum: 4)) { try Meter(parsing: "5/4") }
  }

  @Test func aRaisedCapAllowsFiveFourAndSevenFour() throws {
    let cap = NumeratorCap(atLeast: 7)
    #expect(try Meter(parsing: "5/4", cap: cap).numerator == 5)
    #expect(try Meter(parsing: "7/4", cap: cap).numerator == 7)
    #expect(throws: MeterError.numeratorOverCap(numerator: 8, denominator: 4, maximum: 7)) {
      try Meter(parsing: "8/4", cap: cap)
    }
    #expect(cap.maxNumerator(denominator: 32) == 32)
  }

  /// A written meter is allowed over its own denominator only, beside the rule or a raised cap.
  @Test func aCapAllowsTheMeterWrittenOverItsOwnDenominator() throws {
    let cap = NumeratorCap.denominator.allowing(try Meter(12, 8, cap: .widest))
    #expect(cap.maxNumerator(denominator: 8) == 12)
    #expect(cap.maxNumerator(denominator: 4) == 4)
    #expect(cap.maxNumerator(denominator: 16) == 16)
    #expect(NumeratorCap(atLeast: 14).allowing(try Meter(12, 8, cap: .widest)).maxNumerator(denominator: 8) == 14)
    #expect(throws: MeterError.numeratorOverCap(numerator: 65, denominator: 4, maximum: 64)) {
      try Meter(parsing: "65/4", cap: .widest)
    }
  }

  @Test func stepperMapsOneToFourOntoFourToThirtyTwo() {
    #expect((1...4).map(Meter.denominator(forStep:)) == [4, 8, 16, 32])
    #expect([4, 8, 16, 32].map(Meter.step(forDenominator:)) == [1, 2, 3, 4])
    #expect(Meter.denominator(forStep: 0) == 4)
    #expect(Meter.denominator(forStep: 9) == 32)
  }

  @Test func clampingFollowsTheDenominatorByDefault() {
    let clamped = [32, 16, 8, 4].map { Meter(clampingNumerator: 24, denominator: $0, cap: .denominator).signature }
    #expect(clamped == ["24/32", "16/16", "8/8", "4/4"])
    #expect(Meter(clampingNumerator: 0, denominator: 4, cap: .denominator).numerator == 1)
  }

  @Test func errorsSayWhatToDo() {
    #expect(
      MeterError.numeratorOverCap(numerator: 5, denominator: 4, maximum: 4).description
        == "meter 5/4 has more than 4 beats per bar: write at most 4")
    #expect(
      MeterError.numeratorOverCap(numerator: 65, denominator: 4, maximum: 64).description
        == "meter 65/4 has more than 64 beats per bar: write at most 64")
  }
}
