import MetronomeCore

/// A run's listening: the hits matched to the clicks as both come in, the scored ones kept for
/// the statistics, the summary and the report, and what the display shows of them.
public struct HitScorer: Sendable {
  /// The tolerance, in ms either way, within which a hit is on time.
  public let tolerance: Double
  /// Every hit scored so far, in the order decided.
  public private(set) var scored: [ScoredHit] = []
  /// Hits that were not scored (on the count-in, nearest a click a glitch skipped, far from any
  /// click).
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
  /// What the audio input noticed of the click's path: each time it came back louder or softer,
  /// moved, or had its echo learned again, and stopped being heard (`InputNotice`).
  private var levelChanges: [Double] = []
  private var moves: [Double] = []
  private var echoesLearnedAgain = 0
  private var silences = 0
  private var heardWhereTheOutputGlitched = 0
  /// How long the inputs went unheard in xruns, in ms.
  private var unheardMilliseconds: Double?
  /// The kind of the latest notice, which the display shows.
  private var latestNotice: NoticeLine?

  /// A scorer judging hits within `tolerance` ms.
  public init(tolerance: Double) { self.tolerance = tolerance }

  /// Records a click as heard; returns the hits it scores.
  public mutating func heard(_ click: Beat) -> [ScoredHit] { keep(matcher.heard(click)) }

  /// Records a click a glitch skipped, which did not sound: a hit nearest it is not scored.
  public mutating func skipped(_ click: Beat) -> [ScoredHit] { keep(matcher.heard(click, sounded: false)) }

  /// Records a hit as played; returns it if it is scored now.
  public mutating func played(_ hit: Hit) -> [ScoredHit] {
    if let placement = hit.placement { audioPlacement = placement }
    return keep(matcher.played(hit))
  }

  /// Records what the audio input noticed of itself.
  public mutating func heard(_ notice: InputNotice) {
    switch notice {
    case .clipped: clips += 1
    case .clickLevel(let decibels): levelChanges.append(decibels)
    case .clickMoved(let milliseconds): moves.append(milliseconds)
    case .echoLearnedAgain: echoesLearnedAgain += 1
    case .wentSilent: silences += 1
    case .heardWhereTheOutputGlitched: heardWhereTheOutputGlitched += 1
    case .unheard(let milliseconds): unheardMilliseconds = (unheardMilliseconds ?? 0) + milliseconds
    }
    latestNotice = NoticeLine(notice)
  }

  /// The lines on what the audio input noticed, one for each kind of notice.
  private enum NoticeLine: CaseIterable {
    case clipping, level, echo, silence, glitch, xrun

    init(_ notice: InputNotice) {
      switch notice {
      case .clipped: self = .clipping
      case .clickLevel: self = .level
      case .clickMoved, .echoLearnedAgain: self = .echo
      case .wentSilent: self = .silence
      case .heardWhereTheOutputGlitched: self = .glitch
      case .unheard: self = .xrun
      }
    }
  }

  /// What the run says of `kind` of notice; nil where there was none.
  private func line(_ kind: NoticeLine) -> String? {
    switch kind {
    case .clipping:
      guard clips > 0 else { return nil }
      return "the microphone clipped \(Self.times(clips)) (a hit's start and the click's echo are lost at full scale):"
        + " turn its gain down"
    case .level:
      guard let last = levelChanges.last else { return nil }
      let change = "\(HitStatistics.format(abs(last))) dB \(last > 0 ? "louder" : "softer")"
      return
        (levelChanges.count == 1
        ? "the click came back \(change)"
        : "the click's level changed \(Self.times(levelChanges.count)), last \(change)")
        + " (a volume turned): its echo followed"
    case .echo:
      guard let last = moves.last else {
        guard echoesLearnedAgain > 0 else { return nil }
        return "the click's echo changed (a microphone or a speaker moved, or a volume turned): learned again"
          + (echoesLearnedAgain > 1 ? " \(Self.times(echoesLearnedAgain))" : "")
      }
      let moved = "\(HitStatistics.format(abs(last))) ms \(last > 0 ? "later" : "earlier")"
      return "the click was heard \(moved)\(moves.count > 1 ? " (moved \(Self.times(moves.count)))" : "")"
        + " (the microphone or the speaker moved): hits placed by it; "
        + (echoesLearnedAgain > 0
          ? "its echo learned again" : "let the clicks play alone a bar so that its echo is learned again")
    case .silence:
      guard silences > 0 else { return nil }
      return "the microphone stopped hearing the click" + (silences > 1 ? " \(Self.times(silences))" : "")
        + " (unplugged or muted?)"
    case .glitch:
      guard heardWhereTheOutputGlitched > 0 else { return nil }
      let hits = heardWhereTheOutputGlitched == 1 ? "1 hit" : "\(heardWhereTheOutputGlitched) hits"
      return "\(hits) heard where the output glitched not scored (the click there came late)"
    case .xrun:
      // Not how many xruns: JACK tells each client of every xrun, its own or another's, which
      // the run counts as underruns, and one gap may hold several cycles.
      guard let unheardMilliseconds else { return nil }
      return "the hits went unheard for \(HitStatistics.format(unheardMilliseconds)) ms where the input lost frames"
        + " (xruns): any played then were lost"
    }
  }

  /// "once", "2 times".
  private static func times(_ count: Int) -> String { count == 1 ? "once" : "\(count) times" }

  /// Scores the hits still waiting, as the run ends; returns those scored.
  public mutating func finish() -> [ScoredHit] { keep(matcher.finish()) }

  /// The statistics of every hit scored; nil before the first.
  public var statistics: HitStatistics? { HitStatistics(scored, tolerance: tolerance) }

  /// What the run says when it ends: the statistics' summary, the hits not scored, what the
  /// player did without the click, what placed the audio hits, and what the audio input noticed
  /// of itself.
  public var summary: String {
    let statistics = statistics?.summary ?? "no hits scored"
    return
      ([
        statistics
          + (unscored > 0 ? "; \(unscored) not scored (count-in, a click a glitch skipped, or no click near)" : "")
      ]
      + (SilentPlaying(scored).map { [$0.summary] } ?? [])
      + (audioPlacement.map { ["audio hits \($0.description)"] } ?? []) + NoticeLine.allCases.compactMap(line))
      .joined(separator: "; ")
  }

  /// The display's lines: the last hit on an early-late meter, then the statistics, then what
  /// placed the audio hits; first, a line on the latest that the audio input noticed of itself.
  ///
  /// `last -3.2 ms on time  early ·····:···●|····:····· late`, then
  /// `mean -2.1  median -1.9  sd 4.3 (UR 43)  92% in ±20.0 ms  2 early  2 late`, then
  /// `audio hits placed by the click heard at the microphone, 5.3 ms after it was played`.
  public var displayLines: [String] {
    let progress =
      (latestNotice.flatMap(line).map { [$0] } ?? [])
      + (goal.map { ["hit along with the click: \(scored.count) of \($0)"] } ?? [])
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
