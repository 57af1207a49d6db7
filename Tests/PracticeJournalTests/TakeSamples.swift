import PracticeJournal
import PracticeListening

/// Takes as a test writes them: on a day of November 2026 at UTC+1, with hits where asked.
enum TakeSamples {
  /// A take on `day` (of November 2026) at `hour`, `minutes` long, tagged `tag`, at `tempo`, with
  /// `offsets` (ms) as hits of `notes` in turn, judged within `tolerance`; none: a run that did not listen.
  static func take(
    day: Int = 20, hour: Int = 9, minutes: Double = 5, tag: String? = "groove", tempo: Double = 100,
    offsets: [Double]? = nil, notes: [Int] = [38], tolerance: Double = 20
  ) -> Take {
    // 2026-11-01 00:00 at UTC+1.
    let started = 1_793_487_600.0 + Double(day - 1) * 86_400 + Double(hour) * 3_600
    let spacing = 60 / tempo
    let hits = (offsets ?? []).enumerated().map { index, offset in
      TakeHit(
        seconds: Double(index) * spacing, bar: index / 4 + 1, beat: index % 4 + 1, subdivision: 0, tempo: tempo,
        offset: offset, note: notes[index % notes.count], velocity: 90)
    }
    return Take(
      started: WallTime(seconds: started, utcOffset: 3_600), seconds: minutes * 60, tag: tag, meters: ["4/4"],
      tempos: Take.Tempos(first: tempo, last: tempo, lowest: tempo, highest: tempo), beats: Int(minutes * tempo),
      programme: "steady", ending: "quit", status: 0, tolerance: offsets == nil ? nil : tolerance, hits: hits)
  }
}
