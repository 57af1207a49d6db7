import Testing

@testable import AudioListening

/// What an echo usually leaves: the tenth from the least of the last 63 shares kept.
@Suite(.timeLimit(.minutes(5))) struct ResidualSharesTests {
  /// Shares kept in turn from `values`.
  private func shares(_ values: [Float]) -> ResidualShares {
    let shares = ResidualShares()
    for value in values { shares.note(value) }
    return shares
  }

  @Test func nothingKeptIsAWholeEcho() {
    #expect(ResidualShares().usual == 1)
  }

  @Test func theUsualShareIsTheSeventhFromTheLeastOfSixtyThree() {
    // 63 shares in a shuffled order: the tenth from the least (index 6 of 63) is the seventh.
    let values = (1...63).map { Float($0) / 100 }
    var order = values
    order.swapAt(0, 40)
    order.swapAt(6, 62)
    order.reverse()
    #expect(shares(order).usual == 0.07)
  }

  @Test func theFirstSharesKeptAreSortedWithTheRest() {
    // The loudest kept first, the quietest second: neither stays where it came.
    #expect(shares([0.9, 0.01] + (2...62).map { Float($0) / 100 }).usual == 0.07)
  }

  @Test func untilSixtyThreeAreKeptTheRestCountAsWholeEchoes() {
    #expect(shares(Array(repeating: 0.1, count: 6)).usual == 1)
    #expect(shares(Array(repeating: 0.1, count: 7)).usual == 0.1)
  }

  @Test func onlyTheLastSixtyThreeCount() {
    let quiet = [Float](repeating: 0.2, count: 63)
    // Seven quiet shares left among 63: still the usual; six: no longer.
    #expect(shares(quiet + [Float](repeating: 0.9, count: 56)).usual == 0.2)
    #expect(shares(quiet + [Float](repeating: 0.9, count: 57)).usual == 0.9)
    // And the oldest go first, however many times round.
    #expect(shares([Float](repeating: 0.5, count: 200) + quiet).usual == 0.2)
  }
}
