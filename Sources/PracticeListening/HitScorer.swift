import MetronomeCore

/// A run's listening: the hits matched to the clicks as both come in, the scored ones kept for
/// the statistics, the summary and the report, and what the display shows of them.
public struct HitScorer: Sendable {
  /// The tolerance, in ms either way, within which a hit is on time.
  public let tolerance: Double
  /// Every hit scored so far, in the order decided.
  public private(set) var scored: [ScoredHit] = []
  /// Hits that were not scored (on the count-in, far from any click).
  public private(set) var unscored = 0
  /// How many hits the run wants, as a calibration does; nil for no such count.
  ///
  /// Hits decided once it is reached are dropped.
  public var goal: Int?
  private var matcher = HitMatcher()
  /// What placed the latest audio hit played.
  public private(set) var audioPlacement: HitPlacement?
  /// How many times the audio input was cut at full scale.
  public private(set) var clips = 0

  /// A scorer judging hits within `tolerance` ms.
  public init(tolerance: Double) { self.tolerance = tolerance }

  /// Records a click as heard; returns the hits it scores.
  public mutating func heard(_ click: Beat) -> [ScoredHit] { keep(matcher.heard(click)) }

  /// Records a hit as played; returns it if it is scored now.
  public mutating func played(_ hit: Hit) -> [ScoredHit] {
    if let placement = hit.placement { audioPlacement = placement }
    return keep(matcher.played(hit))
  }

  /// Records the audio input cut at full scale once more.
  public mutating func heardClipping() { clips += 1 }

  /// What the run says of an input that clipped; nil for none.
  private var clipping: String? {
    clips > 0
      ? "the microphone clipped \(clips == 1 ? "once" : "\(clips) times") (a hit's start and the click's echo are lost"
        + " at full scale): turn its gain down" : nil
  }

  /// Scores the hits still waiting, as the run ends; returns those scored.
  public mutating func finish() -> [ScoredHit] { keep(matcher.finish()) }

  /// The statistics of every hit scored; nil before the first.
  public var statistics: HitStatistics? { HitStatistics(scored, tolerance: tolerance) }

  /// What the run says when it ends: the statistics' summary, the hits not scored, what placed
  /// the audio hits, and whether the input clipped.
  public var summary: String {
    let statistics = statistics?.summary ?? "no hits scored"
    return statistics + (unscored > 0 ? "; \(unscored) not scored (count-in, or no click near)" : "")
      + (audioPlacement.map { "; audio hits \($0.description)" } ?? "") + (clipping.map { "; \($0)" } ?? "")
  }

  /// The display's lines: the last hit on an early-late meter, then the statistics, then what
  /// placed the audio hits; a line on the input clipping first, once it has.
  ///
  /// `last -3.2 ms on time  early ·····:···●|····:····· late`, then
  /// `mean -2.1  median -1.9  sd 4.3 (UR 43)  92% in ±20.0 ms  2 early  2 late`, then
  /// `audio hits placed by the click heard at the microphone, 5.3 ms after it was played`.
  public var displayLines: [String] {
    let progress =
      (clipping.map { [$0] } ?? []) + (goal.map { ["hit along with the click: \(scored.count) of \($0)"] } ?? [])
    guard let last = scored.last, let statistics else { return progress.isEmpty ? ["listening: play along"] : progress }
    let cells = 21
    let range = 2 * tolerance
    let offset = min(max(last.offsetMilliseconds, -range), range)
    let position = Int(((offset + range) / (2 * range) * Double(cells - 1)).rounded())
    let meter = (0..<cells).map { cell in
      cell == position ? "●" : cell == cells / 2 ? "|" : abs(cell - cells / 2) == cells / 4 ? ":" : "·"
    }.joined()
    let word = abs(last.offsetMilliseconds) <= tolerance ? "on time" : last.offsetMilliseconds < 0 ? "early" : "late"
    let sign = last.offsetFrames > 0 ? "+" : ""
    return progress + [
      "last \(sign)\(HitStatistics.format(last.offsetMilliseconds)) ms \(word)  early \(meter) late",
      "mean \(HitStatistics.format(statistics.mean))  median \(HitStatistics.format(statistics.median))"
        + "  sd \(HitStatistics.format(statistics.standardDeviation)) (UR \(Int(statistics.unstableRate.rounded())))"
        + "  \(Int((statistics.onTimeShare * 100).rounded()))% in ±\(HitStatistics.format(tolerance)) ms"
        + "  \(statistics.early) early  \(statistics.late) late",
    ] + (audioPlacement.map { ["audio hits \($0.displayWords)"] } ?? [])
  }

  private mutating func keep(_ outcomes: [HitMatcher.Outcome]) -> [ScoredHit] {
    outcomes.compactMap { outcome in
      if let goal, scored.count >= goal { return nil }
      switch outcome {
      case .scored(let hit):
        scored.append(hit)
        return hit
      case .unscored:
        unscored += 1
        return nil
      }
    }
  }
}
