import Testing

@testable import AudioListening

/// Readings of the last clicks heard, which say together that the path changed.
@Suite(.timeLimit(.minutes(5))) struct RecentReadingsTests {
  /// Readings that agree within 1 of their median and say a change where it is beyond 10.
  private func recent(count: Int = 4) -> RecentReadings {
    RecentReadings(count: count, agrees: { abs($0 - $1) <= 1 }, changed: { abs($0) > 10 })
  }

  /// The answers to `readings`, each of a sound in turn from `sounds`.
  private func answers(_ recent: RecentReadings, _ readings: [Float], sounds: [Int] = [0, 1]) -> [Float?] {
    readings.enumerated().map { recent.read($1, of: sounds[$0 % sounds.count]) }
  }

  @Test func theMedianOfAsManyAsKeptAnswersOnceThenTheyAreTakenAgain() {
    let readings = recent()
    #expect(answers(readings, [20, 20.5, 21, 21.5]) == [nil, nil, nil, 20.75])
    // Started again: three more say nothing, the fourth does; an odd count's median is its middle.
    #expect(answers(readings, [30, 30, 30, 30]) == [nil, nil, nil, 30])
    #expect(answers(recent(count: 3), [20, 22, 21]) == [nil, nil, 21])
    #expect(answers(recent(count: 5), [20, 20.5, 21, 19.5, 30]) == [nil, nil, nil, nil, 20.5])
  }

  @Test func readingsOfOneSoundAloneSayNothing() {
    #expect(answers(recent(), [20, 20, 20, 20, 20], sounds: [3]) == [nil, nil, nil, nil, nil])
    #expect(answers(recent(), [20, 20, 20, 20], sounds: [3, 3, 3, 4]) == [nil, nil, nil, 20])
  }

  @Test func allButTheOutliersMustAgree() {
    // One leaned by a stroke is let through; two are not, until one of them leaves the four kept.
    #expect(answers(recent(), [20, 20, 20, 35]) == [nil, nil, nil, 20])
    #expect(answers(recent(), [20, 20, 35, 35, 20, 20, 20]) == [nil, nil, nil, nil, nil, nil, 20])
    // Readings far from their median do not agree with it, however many.
    #expect(answers(recent(), [20, 20.5, 21, 23]) == [nil, nil, nil, 20.75])
    #expect(answers(recent(), [20, 21, 22, 23]) == [nil, nil, nil, nil])
    // Two of four readings away from their median are one too many.
    #expect(answers(recent(), [19, 20, 22, 23]) == [nil, nil, nil, nil])
  }

  /// How far the readings that agreed lay from their median, as a share of it, is kept from the
  /// last change said (not an outlier's, nor readings that said nothing) until the next.
  @Test func theSpreadIsTheFarthestAgreeingReadingsFromTheMedian() {
    let readings = recent()
    #expect(readings.spread == 0)
    #expect(answers(readings, [20, 20.5, 21, 35]) == [nil, nil, nil, 20.75])
    #expect(abs(readings.spread - 0.75 / 20.75) < 1e-6)
    #expect(answers(readings, [40, 50, 60]) == [nil, nil, nil])
    #expect(abs(readings.spread - 0.75 / 20.75) < 1e-6)
    readings.forget()
    #expect(answers(readings, [50, 50, 50, 50]) == [nil, nil, nil, 50])
    #expect(readings.spread == 0)
  }

  @Test func noChangeSaysNothing() {
    #expect(answers(recent(), [10, 10, 10, 10, 10]) == [nil, nil, nil, nil, nil])
    #expect(answers(recent(), [-11, -11, -11, -11]) == [nil, nil, nil, -11])
  }

  @Test func aReadingThatIsNoNumberIsNotTaken() {
    #expect(answers(recent(), [20, .nan, 20, .infinity, 20, 20]) == [nil, nil, nil, nil, nil, 20])
  }

  @Test func forgottenReadingsAreTakenAgainFromNone() {
    let readings = recent()
    #expect(answers(readings, [20, 20, 20]) == [nil, nil, nil])
    readings.forget()
    #expect(answers(readings, [20, 20, 20, 20]) == [nil, nil, nil, 20])
  }
}
