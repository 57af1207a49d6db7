import Testing

@testable import AudioListening

/// The room canceller's gate, at each of its edges: when a segment holds the echo alone, to learn.
///
/// The input's energy is varied against an echo of energy 1 crossed by 1, so that what the
/// correlation leaves unexplained is just over or under what the gate allows.
@Suite(.timeLimit(.minutes(1))) struct EchoPathCancellerGateTests {
  private func alone(heard: Float, usualShare: Float) -> Bool {
    EchoPathCanceller.isHeardAlone(crossed: 1, echo: 1, heard: heard, usualShare: usualShare)
  }

  /// Where the echo usually leaves much (-30 dB), no more than the gate's 1e-4 is left
  /// unexplained: a drum under a click is not taken for the echo.
  @Test func theGateCapsWhatMayBeLeftUnexplained() {
    #expect(alone(heard: 1 + 0.5e-4, usualShare: 1e-3))
    #expect(!alone(heard: 1 + 2e-4, usualShare: 1e-3))
  }

  /// Where the path is known better than the gate, ten times what the echo usually leaves:
  /// 5e-5 where it leaves 5e-6 (4e-5 alone; 5.25e-5, which eleven times would let by, not).
  @Test func belowTheGateTenTimesWhatTheEchoUsuallyLeaves() {
    #expect(alone(heard: 1 + 4e-5, usualShare: 5e-6))
    #expect(!alone(heard: 1 + 5.25e-5, usualShare: 5e-6))
  }

  /// No echo predicted (an energy of 1e-12 or less) or nothing heard is never alone, however well
  /// they match.
  @Test func noEchoOrNothingHeardIsNeverAlone() {
    let tiny: Float = 1e-12
    #expect(!EchoPathCanceller.isHeardAlone(crossed: tiny, echo: tiny, heard: tiny, usualShare: 0))
    #expect(EchoPathCanceller.isHeardAlone(crossed: 1.5 * tiny, echo: 1.5 * tiny, heard: 1.5 * tiny, usualShare: 0))
    #expect(!EchoPathCanceller.isHeardAlone(crossed: 0, echo: 1, heard: 0, usualShare: 0))
    #expect(alone(heard: 1, usualShare: 0))
  }

  /// However well the path is known (the echo usually leaving nothing), 1e-7 may be left
  /// unexplained, a float's rounding over a segment: an input 2^-23 louder than the echo it
  /// matches is alone, 2^-22 louder is not (where 2e-7 would let it by).
  @Test func aLittleIsLeftToRoundingHoweverWellThePathIsKnown() {
    #expect(alone(heard: 1 + 0x1p-23, usualShare: 0))
    #expect(!alone(heard: 1 + 0x1p-22, usualShare: 0))
  }
}
