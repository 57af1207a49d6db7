import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct SubdivisionTests {
  @Test func straightClicksAreEvenlySpacedFromTheBeat() throws {
    let triplets = try Subdivision(3)
    #expect((1..<3).map { triplets.offset(ofClick: $0, beatLength: 24_000) } == [8_000, 16_000])
  }

  @Test func swingDelaysEverySecondClickOfEachPair() throws {
    let swungEighths = try Subdivision(2, swing: 2.0 / 3)
    #expect(swungEighths.offset(ofClick: 1, beatLength: 24_000) == 16_000)
    let swungSixteenths = try Subdivision(4, swing: 0.75)
    #expect((1..<4).map { swungSixteenths.offset(ofClick: $0, beatLength: 24_000) } == [9_000, 12_000, 21_000])
  }

  @Test func sixtySixPointSevenPercentIsExactlyTheTripletFeel() {
    #expect(Subdivision.swing(percent: 66.7) == 2.0 / 3)
    #expect(Subdivision.swing(percent: 66.67) == 2.0 / 3)
    #expect(Subdivision.swing(percent: 60) == 0.6)
  }

  @Test func refusesWhatCannotBePlayed() {
    #expect(throws: SubdivisionError.countOutOfRange(0)) { try Subdivision(0) }
    #expect(throws: SubdivisionError.countOutOfRange(100)) { try Subdivision(100) }
    #expect(throws: SubdivisionError.swingOutOfRange(0.2)) { try Subdivision(2, swing: 0.2) }
    #expect(throws: SubdivisionError.swingOutOfRange(1)) { try Subdivision(2, swing: 1) }
    #expect(throws: SubdivisionError.swingNeedsAnEvenCount(3)) { try Subdivision(3, swing: 0.6) }
    #expect(throws: (any Error).self) { try Subdivision(2, swing: .nan) }
  }

  @Test func stepsKeepTheSwingWhereItApplies() throws {
    let swung = try Subdivision(2, swing: 0.75)
    #expect(swung.counting(3) == (try Subdivision(3)))
    #expect(swung.counting(4) == (try Subdivision(4, swing: 0.75)))
    #expect(swung.counting(12).count == 9)
    #expect(swung.counting(0) == .none)
    #expect(try Subdivision(3).swung(0.6) == (try Subdivision(3)))
    #expect(swung.description == "2 swung 75 %")
  }
}
