import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct BeatGridTests {
  @Test func framesComeFromTheAnchorWithOneRounding() throws {
    let grid = BeatGrid(anchorFrame: 1_000, tempo: try Tempo(bpm: 97), denominator: 4, sampleRate: .standard)
    // 48000 × 60 / 97 = 29690.72…: gaps of 29690 and 29691, never a drift.
    #expect((0...3).map(grid.frame(ofBeat:)) == [1_000, 30_691, 60_381, 90_072])
  }

  @Test func exactAtEveryRateForAMillionBeats() throws {
    for hz in [44_100, 48_000, 96_000] {
      let rate = try SampleRate(hz)
      let grid = BeatGrid(anchorFrame: 0, tempo: try Tempo(bpm: 137), denominator: 4, sampleRate: rate)
      let n = 1_000_000
      // round(n × hz × 60 / 137), in integers with halves up.
      let exact = (Int64(n) * Int64(hz) * 120 + 137) / 274
      #expect(grid.frame(ofBeat: n) == exact)
    }
  }

  @Test func fractionalTempoOnAnEighthNoteGrid() throws {
    let grid = BeatGrid(anchorFrame: 0, tempo: try Tempo(bpm: 97.5), denominator: 8, sampleRate: .standard)
    // One eighth at 97.5 quarter notes per minute is 48000 × 240 / 780 = 14769.23… frames.
    #expect((0...3).map(grid.frame(ofBeat:)) == [0, 14_769, 29_538, 44_308])
  }
}
