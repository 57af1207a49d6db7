import Testing

@testable import AudioListening

/// When the room canceller says the input lost the echo, at each edge of the rule.
@Suite(.timeLimit(.minutes(1))) struct EchoLossTests {
  /// A loss after `loud` segments heard as loud as the echo of 1 predicted, then `quiet` heard at
  /// `share` of it.
  private func loss(loud: Int, quiet: Int, at share: Float) -> EchoLoss {
    var loss = EchoLoss()
    for _ in 0..<loud { loss.note(heard: 1, echo: 1) }
    for _ in 0..<quiet { loss.note(heard: share, echo: 1) }
    return loss
  }

  /// Less than a hundredth of the echo in one segment is lost at once; exactly a hundredth, or a
  /// little more, is not (the segments before heard it whole); a segment heard alone never is.
  @Test func aHundredthOfTheEchoInOneSegmentIsLost() {
    let loss = loss(loud: 10, quiet: 0, at: 0)
    #expect(loss.isLost(heard: 0.0099, echo: 1, alone: false))
    #expect(!loss.isLost(heard: 0.01, echo: 1, alone: false))
    #expect(!loss.isLost(heard: 0.015, echo: 1, alone: false))
    #expect(!loss.isLost(heard: 0, echo: 1, alone: true))
  }

  /// Segment after segment, each weighing 0.7 of the one after: after ten heard whole, segments
  /// heard at 2 % of the echo are lost from the tenth on (a twentieth of the echo, weighed), with
  /// none before from the first; at 4 % in the end, at 6 % never.
  @Test func aTwentiethSegmentAfterSegmentIsLostAsTheSegmentsWeigh() {
    let lostFrom = (1...30).first { quiet in
      let now = loss(loud: 10, quiet: quiet, at: 0.02)
      return now.isLost(heard: 0.02, echo: 1, alone: false)
    }
    #expect(lostFrom == 10)
    // With nothing heard whole before, from the first segment noted.
    #expect(loss(loud: 0, quiet: 1, at: 0.02).isLost(heard: 0.02, echo: 1, alone: false))
    let sixPercent = loss(loud: 10, quiet: 100, at: 0.06)
    #expect(!sixPercent.isLost(heard: 0.06, echo: 1, alone: false))
    #expect(loss(loud: 10, quiet: 100, at: 0.04).isLost(heard: 0.04, echo: 1, alone: false))
  }

  /// Segments with no echo predicted (1e-12 or less) are not noted: a loss goes on through the
  /// silence between clicks, and a segment heard there weighs nothing; one with an echo of
  /// 1.5e-12 heard whole is noted, and a hundred of them end a loss.
  @Test func segmentsWithNoEchoAreNotNoted() {
    var lost = loss(loud: 10, quiet: 20, at: 0)
    for _ in 0..<50 { lost.note(heard: 1, echo: 1e-12) }
    #expect(lost.isLost(heard: 0.5, echo: 1e-12, alone: false))
    var heard = loss(loud: 10, quiet: 20, at: 0)
    for _ in 0..<100 { heard.note(heard: 1.5e-12, echo: 1.5e-12) }
    #expect(!heard.isLost(heard: 0.5, echo: 1, alone: false))
  }
}
