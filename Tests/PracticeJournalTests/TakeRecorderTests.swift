import MetronomeCore
import PracticeJournal
import PracticeListening
import Testing

/// A take as it plays: the beats of the bar counted with their meters and tempos.
@Suite(.timeLimit(.minutes(1)))
struct TakeRecorderTests {
  private func beat(_ count: Int, _ meter: Meter, _ bpm: Double, subdivision: Int = 0, countIn: Bool = false) throws
    -> Beat
  {
    Beat(
      count: count, bar: 1, beatInBar: 1, meter: meter, tempo: try Tempo(bpm: bpm), frame: Int64(count) * 24_000,
      sampleRate: .standard, subdivision: subdivision, isCountIn: countIn)
  }

  @Test func theBeatsOfTheBarCountWithTheirMetersAndTempos() throws {
    var recorder = TakeRecorder(started: WallTime(seconds: 0, utcOffset: 0), tag: "groove", programme: "steady")
    let sevenEight = try Meter(7, 8)
    try recorder.heard(beat(0, .fourFour, 100, countIn: true))
    try recorder.heard(beat(1, .fourFour, 120))
    try recorder.heard(beat(2, .fourFour, 120, subdivision: 1))
    try recorder.heard(beat(3, sevenEight, 90))
    try recorder.heard(beat(4, .fourFour, 140))
    try recorder.heard(beat(5, sevenEight, 110))
    let take = recorder.take(seconds: 12, ending: "quit", status: 0, scorer: nil)
    #expect(take.beats == 4)
    #expect(take.meters == ["4/4", "7/8"])
    #expect(take.tempos == Take.Tempos(first: 120, last: 110, lowest: 90, highest: 140))
    #expect(take.tag == "groove" && take.seconds == 12 && take.ending == "quit" && take.tolerance == nil)
    #expect(take.hits == [])
  }

  @Test func aTakeThatListenedKeepsEveryHitScored() throws {
    var scorer = HitScorer(tolerance: 15)
    _ = scorer.heard(try beat(0, .fourFour, 120))
    _ = scorer.heard(try beat(1, .fourFour, 120))
    _ = scorer.played(Hit(frame: 96, note: 36, velocity: 80))
    _ = scorer.finish()
    let take = TakeRecorder(started: WallTime(seconds: 0, utcOffset: 0), tag: nil, programme: "steady")
      .take(seconds: 1, ending: "played to its end", status: 0, scorer: scorer)
    #expect(take.tolerance == 15)
    #expect(
      take.hits == [TakeHit(seconds: 0, bar: 1, beat: 1, subdivision: 0, tempo: 120, offset: 2, note: 36, velocity: 80)]
    )
    #expect(take.meters == [] && take.tempos == nil && take.beats == 0)
  }
}
