import Testing

@testable import AudioListening

/// How long the doubt about a level just scaled lasts, and what counts as heard as loud.
@Suite(.timeLimit(.minutes(1))) struct LevelDoubtTests {
  /// A doubt lasts 16 segments heard alone and as loud, and no more; a doubt anew starts the 16
  /// again; with none, there is none.
  @Test func aDoubtLastsSixteenSegmentsHeardAsLoud() {
    var doubt = LevelDoubt()
    #expect(doubt.share == 0)
    doubt.doubt(by: 0.03)
    for settled in 0..<20 {
      #expect(doubt.share == (settled < 16 ? 0.03 : 0), "after \(settled)")
      doubt.settle()
    }
    doubt.doubt(by: 0.02)
    for _ in 0..<15 { doubt.settle() }
    #expect(doubt.share == 0.02)
    doubt.doubt(by: 0.01)
    for _ in 0..<15 { doubt.settle() }
    #expect(doubt.share == 0.01)
    doubt.settle()
    #expect(doubt.share == 0)
  }

  /// As loud is within 2 % of the echo's energy either way, exactly 2 % included.
  @Test func asLoudIsWithinTwoPercent() {
    #expect(LevelDoubt.isAsLoud(crossed: 51, echo: 50))
    #expect(LevelDoubt.isAsLoud(crossed: 49, echo: 50))
    #expect(!LevelDoubt.isAsLoud(crossed: 51.01, echo: 50))
    #expect(!LevelDoubt.isAsLoud(crossed: 48.99, echo: 50))
  }
}
