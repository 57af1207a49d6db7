import PracticeJournal
import PracticeListening
import Testing

/// The journal as the terminal shows it.
@Suite(.timeLimit(.minutes(1)))
struct JournalTableTests {
  @Test func eachTakeOnALineThenEachTagsDays() throws {
    let folder = try JournalFolder()
    let journal = try Journal.openForKeeping(folder.file("journal.sqlite3"))
    try journal.keep(TakeSamples.take(day: 3, minutes: 12, offsets: [-10, -2, 0, 4] + Array(repeating: 1, count: 6)))
    try journal.keep(TakeSamples.take(day: 3, hour: 18, minutes: 3.5, tag: nil, tempo: 97.5))
    try journal.keep(TakeSamples.take(day: 4, minutes: 20, tempo: 110, offsets: [30, -30], notes: [36, 42]))
    let takes = try journal.takes()
    #expect(
      JournalTable.takes(takes) == [
        "day         time   tag      min  meter  tempo  hits  mean  median   dev  within",
        "2026-11-03  09:00  groove  12.0  4/4    100      10  -0.2     1.0   3.5    100%",
        "            18:00           3.5  4/4    97.5      -     -       -     -       -",
        "2026-11-04  09:00  groove  20.0  4/4    110       2   0.0     0.0  30.0      0%",
      ])
    #expect(
      JournalTable.trends(JournalTrend.of(takes)) == [
        "", "groove: 2 days, 32.0 min",
        "day         takes   min  kept at  mean   dev  within  per note",
        "2026-11-03      1  12.0  100 BPM  -0.2   3.5    100%",
        "2026-11-04      1  20.0        -   0.0  30.0      0%  36 kick 30.0±0.0, 42 hi-hat -30.0±0.0",
        "", "untagged: 1 day, 3.5 min",
        "day         takes  min  kept at  mean  dev  within  per note",
        "2026-11-03      1  3.5        -     -    -       -",
      ])
  }

  @Test func notesAreNamedAsGeneralMIDIsDrumMapNamesThem() {
    #expect(JournalTable.noteName(36) == "36 kick")
    #expect(JournalTable.noteName(38) == "38 snare")
    #expect(JournalTable.noteName(46) == "46 hi-hat")
    #expect(JournalTable.noteName(Hit.keyNote) == "keys")
    #expect(JournalTable.noteName(Hit.audioNote) == "audio")
    #expect(JournalTable.noteName(60) == "note 60")
    #expect(
      [49, 51, 52, 53, 55, 57, 59].map(JournalTable.noteName) == [
        "49 crash", "51 ride", "52 crash", "53 ride", "55 crash", "57 crash", "59 ride",
      ])
  }
}
