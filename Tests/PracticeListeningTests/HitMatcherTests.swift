import MetronomeCore
import PracticeListening
import Testing

/// The clicks of a steady run at 120 (24 000 frames apart at 48 kHz), from `first`.
func steadyClicks(count: Int, from first: Int64 = 0, spacing: Int64 = 24_000, countIn: Int = 0) -> [Beat] {
  (0..<count).map { index in
    let beat = index - countIn
    return Beat(
      count: beat, bar: beat < 0 ? 0 : beat / 4 + 1, beatInBar: (index % 4) + 1, meter: .fourFour,
      tempo: .standard,
      frame: first + Int64(index) * spacing, sampleRate: .standard, isCountIn: index < countIn)
  }
}

/// Feeds `clicks` and `hits` to a matcher in the order given by `hitsFirst`, then finishes.
func outcomes(clicks: [Beat], hits: [Hit], hitsFirst: Bool = false) -> [HitMatcher.Outcome] {
  var matcher = HitMatcher()
  var decided: [HitMatcher.Outcome] = []
  if hitsFirst {
    for hit in hits { decided += matcher.played(hit) }
    for click in clicks { decided += matcher.heard(click) }
  } else {
    for click in clicks { decided += matcher.heard(click) }
    for hit in hits { decided += matcher.played(hit) }
  }
  return decided + matcher.finish()
}

func offsets(_ outcomes: [HitMatcher.Outcome]) -> [Int64?] {
  outcomes.map {
    if case .scored(let scored) = $0 { scored.offsetFrames } else { nil }
  }
}

@Suite(.timeLimit(.minutes(1))) struct HitMatcherTests {
  @Test func eachHitGetsItsOffsetFromTheNearestClickToTheFrame() {
    let clicks = steadyClicks(count: 8)
    let chosen: [Int64] = [0, -480, 960, -11_999, 12_000, 1, -1]
    let hits = chosen.enumerated().map {
      Hit(frame: Int64($0.offset + 1) * 24_000 + $0.element, note: 38, velocity: 90)
    }
    #expect(offsets(outcomes(clicks: clicks, hits: hits)) == chosen)
    // Halfway between two clicks the earlier one takes it: 12 000 late, not 12 000 early.
    guard case .scored(let halfway) = outcomes(clicks: clicks, hits: [hits[4]])[0] else {
      Issue.record("not scored")
      return
    }
    #expect(halfway.click.frame == 120_000 && halfway.click.bar == 2 && halfway.click.beatInBar == 2)
  }

  @Test func anEarlyHitWaitsForTheClickItWasEarlyFor() {
    var matcher = HitMatcher()
    for click in steadyClicks(count: 2) { #expect(matcher.heard(click).isEmpty) }
    // 10 ms before the third click, which is not known yet.
    #expect(matcher.played(Hit(frame: 47_520, note: 36, velocity: 100)).isEmpty)
    let decided = matcher.heard(steadyClicks(count: 3)[2])
    #expect(offsets(decided) == [-480])
  }

  @Test func theOrderHitsAndClicksArriveInChangesNothing() {
    let clicks = steadyClicks(count: 6)
    let hits = [24_100, 47_000, 72_000, 95_500].map { Hit(frame: Int64($0), note: 36, velocity: 100) }
    #expect(
      offsets(outcomes(clicks: clicks, hits: hits, hitsFirst: true)) == offsets(outcomes(clicks: clicks, hits: hits)))
    #expect(offsets(outcomes(clicks: clicks, hits: hits)) == [100, -1_000, 0, -500])
  }

  @Test func subdivisionsAndSilentClicksCountTheSecondVoiceDoesNot() {
    let beat = steadyClicks(count: 1)[0]
    let clicks = [
      beat, beat.click(at: 12_000, level: .silent, subdivision: 1),
      beat.click(at: 8_000, level: .normal, voice: .polyrhythm(click: 1, of: 3)),
      steadyClicks(count: 2)[1],
    ]
    let decided = outcomes(
      clicks: clicks, hits: [Hit(frame: 12_240, note: 42, velocity: 60), Hit(frame: 5_000, note: 42, velocity: 60)])
    guard case .scored(let sub) = decided[0], case .scored(let beatHit) = decided[1] else {
      Issue.record("not scored: \(decided)")
      return
    }
    #expect(sub.click.subdivision == 1 && sub.offsetFrames == 240)
    // Nearest the beat's click (5 000 after it), not the second voice's at 8 000.
    #expect(beatHit.click.frame == 0 && beatHit.offsetFrames == 5_000)
  }

  @Test func hitsOnTheCountInAreNotScoredTheFirstBeatIs() {
    let clicks = steadyClicks(count: 8, countIn: 4)
    let decided = outcomes(
      clicks: clicks, hits: [Hit(frame: 24_100, note: 36, velocity: 90), Hit(frame: 95_800, note: 36, velocity: 90)])
    #expect(decided[0] == .unscored(Hit(frame: 24_100, note: 36, velocity: 90), reason: "count-in"))
    #expect(offsets([decided[1]]) == [-200])
  }

  @Test func aChangeOfTempoMovesTheMidpoint() {
    // 120, then 60 from the fourth click: 24 000 then 48 000 apart.
    let fast = steadyClicks(count: 4)
    let slow = steadyClicks(count: 3, from: 72_000 + 48_000, spacing: 48_000)
    // 20 000 after the fourth click: at 120 nearer the next, at 60 nearer the fourth.
    let decided = outcomes(clicks: fast + slow, hits: [Hit(frame: 92_000, note: 36, velocity: 90)])
    #expect(offsets(decided) == [20_000])
  }

  @Test func aHitInAPauseFarFromAnyClickIsNotScored() {
    // Two seconds of clicks, a pause of ten seconds, then clicks again.
    let before = steadyClicks(count: 4)
    let after = steadyClicks(count: 4, from: 72_000 + 480_000)
    let hits = [72_500, 300_000, 552_000 - 1_000].map { Hit(frame: Int64($0), note: 36, velocity: 90) }
    let decided = outcomes(clicks: before + after, hits: hits)
    #expect(offsets(decided) == [500, nil, -1_000])
    #expect(decided[1] == .unscored(hits[1], reason: "no click near it"))
  }

  @Test func atTheEndAHitIsScoredOnlyNearTheLastClick() {
    let clicks = steadyClicks(count: 3)
    var matcher = HitMatcher()
    for click in clicks { _ = matcher.heard(click) }
    #expect(matcher.played(Hit(frame: 48_300, note: 36, velocity: 90)).isEmpty)
    #expect(matcher.played(Hit(frame: 70_000, note: 36, velocity: 90)).isEmpty)
    let decided = matcher.finish()
    #expect(offsets(decided) == [300, nil])
  }

  @Test func beforeTheFirstClickOnlyAHitNearItIsScored() {
    let clicks = steadyClicks(count: 3, from: 48_000)
    let decided = outcomes(
      clicks: clicks, hits: [Hit(frame: 47_000, note: 36, velocity: 90), Hit(frame: 10_000, note: 36, velocity: 90)])
    #expect(offsets(decided) == [-1_000, nil])
  }
}

@Suite(.timeLimit(.minutes(1))) struct HitScorerTests {
  /// The display's meter: 21 cells from twice the tolerance early to twice it late, the middle
  /// marked `|` and the tolerance either way `:`, the last hit's cell `●` (held at the ends
  /// beyond them); its offset signed `+` when late only.
  @Test func theDisplaysMeterPlacesTheLastHit() {
    let cases: [(Int64, String)] = [
      (-960, "last -20.0 ms early  early ●····:····|····:····· late"),
      (-480, "last -10.0 ms on time  early ·····●····|····:····· late"),
      (0, "last 0.0 ms on time  early ·····:····●····:····· late"),
      (1, "last +0.0 ms on time  early ·····:····●····:····· late"),
      (48, "last +1.0 ms on time  early ·····:····|●···:····· late"),
      (480, "last +10.0 ms on time  early ·····:····|····●····· late"),
      (960, "last +20.0 ms late  early ·····:····|····:····● late"),
      (4_800, "last +100.0 ms late  early ·····:····|····:····● late"),
    ]
    for (offset, line) in cases {
      var scorer = HitScorer(tolerance: 10)
      for click in steadyClicks(count: 3) { _ = scorer.heard(click) }
      _ = scorer.played(Hit(frame: 24_000 + offset, note: 38, velocity: 90))
      _ = scorer.finish()
      #expect(scorer.displayLines.first == line, "\(offset)")
    }
  }

  /// Under a millisecond of tolerance, a hit beyond it is early or late by its sign.
  @Test func aToleranceUnderAMillisecondStillTellsEarlyFromLate() {
    for (offset, word) in [(36, "late"), (-36, "early")] {
      var scorer = HitScorer(tolerance: 0.5)
      for click in steadyClicks(count: 3) { _ = scorer.heard(click) }
      _ = scorer.played(Hit(frame: 24_000 + Int64(offset), note: 38, velocity: 90))
      _ = scorer.finish()
      #expect(scorer.displayLines.first?.contains(" ms \(word)  ") == true, "\(scorer.displayLines)")
    }
  }

  /// A hit not scored is counted and said, the first one too.
  @Test func hitsNotScoredAreCountedFromTheFirst() {
    var scorer = HitScorer(tolerance: 20)
    for click in steadyClicks(count: 3, countIn: 1) { _ = scorer.heard(click) }
    _ = scorer.played(Hit(frame: 10, note: 38, velocity: 90))
    _ = scorer.finish()
    #expect(scorer.unscored == 1)
    #expect(scorer.summary == "no hits scored; 1 not scored (count-in, a click a glitch skipped, or no click near)")
    _ = scorer.played(Hit(frame: 500_000, note: 38, velocity: 90))
    _ = scorer.finish()
    #expect(scorer.unscored == 2)
  }

  /// An echo learned again a second time says so.
  @Test func anEchoLearnedAgainTwiceSaysHowOften() {
    var scorer = HitScorer(tolerance: 20)
    scorer.heard(.echoLearnedAgain)
    scorer.heard(.echoLearnedAgain)
    #expect(scorer.summary.hasSuffix("or a volume turned): learned again 2 times"), "\(scorer.summary)")
  }

  @Test func hitsDecidedAfterTheGoalAreDropped() {
    var scorer = HitScorer(tolerance: 20)
    scorer.goal = 3
    for hit in (1...5).map({ Hit(frame: Int64($0) * 24_000 + 48, note: 38, velocity: 90) }) { _ = scorer.played(hit) }
    // Each click decides the hit after the one before it; the first three are kept.
    var decided: [ScoredHit] = []
    for click in steadyClicks(count: 7) { decided += scorer.heard(click) }
    #expect(decided.count == 3 && scorer.scored.count == 3)
    #expect(scorer.finish().isEmpty && scorer.unscored == 0)
    #expect(scorer.displayLines.first == "hit along with the click: 3 of 3")
  }
}

@Suite(.timeLimit(.minutes(1))) struct HitPlacementTests {
  /// The summary ends with what placed the latest audio hit; MIDI hits add nothing to it.
  @Test func theSummarySaysWhatPlacedTheAudioHits() {
    var scorer = HitScorer(tolerance: 20)
    _ = scorer.played(Hit(frame: 24_048, note: 38, velocity: 90))
    #expect(!scorer.summary.contains("placed by"))
    _ = scorer.played(Hit(frame: 48_000, note: Hit.audioNote, velocity: 90, placement: .reportedLatency))
    _ = scorer.played(
      Hit(frame: 72_000, note: Hit.audioNote, velocity: 90, placement: .heardClick(milliseconds: 5.25)))
    for click in steadyClicks(count: 4) { _ = scorer.heard(click) }
    #expect(
      scorer.summary.hasSuffix("; audio hits placed by the click heard at the microphone, 5.3 ms after it was played"),
      "\(scorer.summary)")
  }

  /// Each way a hit is placed, in the summary's words: a calibration by its day where the file
  /// says it.
  @Test func eachPlacementIsSaidInAFewWords() {
    #expect(HitPlacement.heardClick(milliseconds: nil).description == "placed by the click heard at the microphone")
    #expect(
      HitPlacement.calibration(day: "2026-11-25").description
        == "placed by the calibration of 2026-11-25 (the microphone did not hear the click)")
    #expect(
      HitPlacement.calibration(day: nil).description
        == "placed by the saved calibration (the microphone did not hear the click)")
    #expect(
      HitPlacement.reportedLatency.description
        == "placed by the latencies the devices report (the microphone did not hear the click: run metronome"
        + " calibrate --loopback)")
  }

  /// What places a hit the microphone does not hear the click for: the source's calibration, with
  /// its day where the file keeps one, else the devices' reports; another source's is not it.
  @Test func aHitNotHeardWithTheClickIsPlacedByItsSourcesCalibration() throws {
    let file = try CalibrationFile(parsing: "jack-round-trip 26.667 2026-11-25\nmidi 12\n", source: "cal")
    #expect(HitPlacement(unheardBy: file, from: .jackRoundTrip) == .calibration(day: "2026-11-25"))
    #expect(HitPlacement(unheardBy: file, from: .midi) == .calibration(day: nil))
    #expect(HitPlacement(unheardBy: file, from: .alsaUnreportedLatency) == .reportedLatency)
  }

  /// An input cut at full scale is said at the summary's end and on the display's first line,
  /// once or so many times.
  @Test func aMicrophoneThatClippedIsSaid() {
    var scorer = HitScorer(tolerance: 20)
    #expect(!scorer.summary.contains("clipped") && scorer.displayLines == ["listening: play along"])
    scorer.heard(.clipped)
    let once =
      "the microphone clipped once (a hit's start and the click's echo are lost at full scale): turn its gain down"
    #expect(scorer.summary == "no hits scored; " + once)
    #expect(scorer.displayLines == [once])
    scorer.heard(.clipped)
    _ = scorer.played(Hit(frame: 24_048, note: 38, velocity: 90))
    for click in steadyClicks(count: 3) { _ = scorer.heard(click) }
    #expect(
      scorer.summary.hasSuffix(
        "; the microphone clipped 2 times (a hit's start and the click's echo are lost at full scale): turn its gain down"
      ))
    #expect(
      scorer.displayLines.first?.hasPrefix("the microphone clipped 2 times") == true && scorer.displayLines.count == 3)
  }

  /// What the microphone noticed of the click's path is said at the summary's end, a line for
  /// each kind, and the latest on the display's first line.
  @Test func whatTheMicrophoneNoticedOfTheClickIsSaid() {
    var scorer = HitScorer(tolerance: 20)
    scorer.heard(.clickLevel(decibels: 6.02))
    let louder = "the click came back 6.0 dB louder (a volume turned): its echo followed"
    #expect(scorer.summary == "no hits scored; " + louder && scorer.displayLines == [louder])
    scorer.heard(.clickMoved(milliseconds: 3.08))
    let moved =
      "the click was heard 3.1 ms later (the microphone or the speaker moved): hits placed by it; let the clicks play"
      + " alone a bar so that its echo is learned again"
    #expect(scorer.summary == "no hits scored; \(louder); \(moved)" && scorer.displayLines == [moved])
    scorer.heard(.clickLevel(decibels: -2.5))
    scorer.heard(.echoLearnedAgain)
    scorer.heard(.wentSilent)
    scorer.heard(.wentSilent)
    #expect(
      scorer.summary
        == "no hits scored; the click's level changed 2 times, last 2.5 dB softer (a volume turned): its echo followed;"
        + " the click was heard 3.1 ms later (the microphone or the speaker moved): hits placed by it; its echo learned"
        + " again; the microphone stopped hearing the click 2 times (unplugged or muted?)")
    #expect(scorer.displayLines == ["the microphone stopped hearing the click 2 times (unplugged or muted?)"])
    var learned = HitScorer(tolerance: 20)
    learned.heard(.echoLearnedAgain)
    learned.heard(.wentSilent)
    #expect(
      learned.summary
        == "no hits scored; the click's echo changed (a microphone or a speaker moved, or a volume turned): learned"
        + " again; the microphone stopped hearing the click (unplugged or muted?)")
  }

  /// The display's last line says what placed the audio hits, in fewer words; with none, no line.
  @Test func theDisplaySaysWhatPlacedTheAudioHits() {
    var scorer = HitScorer(tolerance: 20)
    _ = scorer.played(Hit(frame: 24_048, note: 38, velocity: 90))
    for click in steadyClicks(count: 3) { _ = scorer.heard(click) }
    #expect(scorer.displayLines.count == 2 && !scorer.displayLines.joined().contains("placed"))
    for (placement, words) in [
      (
        HitPlacement.heardClick(milliseconds: 5.25),
        "audio hits placed by the click heard at the microphone, 5.3 ms after it was played"
      ),
      (.calibration(day: "2026-11-25"), "audio hits placed by the calibration of 2026-11-25"),
      (.reportedLatency, "audio hits placed by the latencies the devices report"),
    ] {
      _ = scorer.played(Hit(frame: 72_000, note: Hit.audioNote, velocity: 90, placement: placement))
      #expect(scorer.displayLines.last == words, "\(scorer.displayLines)")
    }
  }
}
