import Foundation
import MetronomeTesting
import PracticeJournal
import PracticeListening

/// A year of daily practice written to a journal, for timing `metronome journal` on it: each day
/// a take of `hits` hits (kick, snare and hi-hat in turn) at a tempo that climbs as the player
/// gets steadier, the two tags in turn; the offsets drawn from a seeded generator, so the same
/// journal comes out each time.
enum JournalBenchmark {
  static func run(path: String, days: Int, hits: Int) throws {
    let journal = try Journal.openForKeeping(path)
    var generator = SeededGenerator(seed: 20_261_127)
    let start = 1_764_230_400.0  // 2025-11-27, 09:00 at UTC+1 below
    let written = ContinuousClock.now
    for day in 0..<days {
      // Steadier over the year: a spread from 14 ms down to 5, a mean from 8 ms early to 2.
      let progress = Double(day) / Double(max(days - 1, 1))
      let spread = 14 - 9 * progress
      let mean = -8 + 6 * progress
      let tempo = (90 + 40 * progress).rounded()
      let spacing = 60 / tempo / 2
      let takeHits = (0..<hits).map { index in
        TakeHit(
          seconds: Double(index) * spacing, bar: index / 8 + 1, beat: index % 8 / 2 + 1, subdivision: index % 2,
          tempo: tempo, offset: mean + spread * normal(&generator), note: [36, 42, 38, 42][index % 4], velocity: 100)
      }
      let take = Take(
        started: WallTime(seconds: start + Double(day) * 86_400, utcOffset: 3_600), seconds: Double(hits) * spacing,
        tag: day.isMultiple(of: 2) ? "groove" : "rudiments", meters: ["4/4"],
        tempos: Take.Tempos(first: tempo, last: tempo, lowest: tempo, highest: tempo), beats: hits / 2,
        programme: "steady", ending: "quit", status: 0, tolerance: 20, hits: takeHits)
      try journal.keep(take)
    }
    let elapsed = ContinuousClock.now - written
    print("journal: \(days) takes of \(hits) hits kept in \(path) in \(elapsed)")
  }

  /// A number drawn from the normal distribution of mean 0 and deviation 1 (Box and Muller).
  private static func normal(_ generator: inout SeededGenerator) -> Double {
    let (u, v) = (Double.random(in: 0..<1, using: &generator), Double.random(in: 0..<1, using: &generator))
    return (-2 * log(1 - u)).squareRoot() * cos(2 * .pi * v)
  }
}
