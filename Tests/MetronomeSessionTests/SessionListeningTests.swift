import CombineSchedulers
import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import MetronomeSession
import PracticeListening
import TerminalUI
import Testing

/// Listening in virtual time: hits at chosen frames from the clicks the same settings render,
/// each delivered to the session 30 ms after it is played (as a port's cycle would), come back
/// with their offsets exactly, on every kind of click.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct SessionListeningTests {
  /// Every click `settings` play, as an engine of their own renders them.
  private func clicks(of settings: PlaybackSettings) -> [Beat] {
    let engine = ClickEngine(settings: settings)
    var clicks: [Beat] = []
    while !engine.isFinished {
      _ = engine.renderPeriod(frames: 512)
      clicks += engine.renderer.beatsInLastPeriod
    }
    return clicks.filter { $0.voice == .beats }
  }

  /// Plays `settings` with a hit `offset` frames from each click `chosen` names; returns the
  /// harness once the run has ended, and the lines expected for the hits that are scored.
  private func play(
    _ settings: PlaybackSettings, hits chosen: [(click: Int, offset: Int64)], keys: String = "", display: Bool = false
  ) throws -> (Harness, expected: [String]) {
    let clicks = clicks(of: settings)
    let harness = try Harness(
      settings, keys: keys, display: display,
      practice: Practice(scorer: HitScorer(tolerance: 20)))
    var expected: [String] = []
    for (index, (click, offset)) in chosen.enumerated() {
      let hit = Hit(frame: clicks[click].frame + offset, note: 36 + index % 2, velocity: 100)
      if !clicks[click].isCountIn { expected.append(HitLine.text(ScoredHit(hit: hit, click: clicks[click])) + "\n") }
      harness.at(Double(hit.frame) / 48_000 + 0.03) { $0.receive(.hit(hit)) }
    }
    harness.run()
    return (harness, expected)
  }

  @Test func swungSubdivisionsAndTheCountInAreScoredToTheFrame() throws {
    let settings = PlaybackSettings(
      subdivision: try Subdivision(2, swing: 0.66), length: .bars(2), programme: Programme(countIn: .bars(1)))
    // A count-in beat (not scored), beat one of the music late, a swung off-beat early, the
    // next beat 1 frame early, a silent-free off-beat on its frame.
    let (harness, expected) = try play(settings, hits: [(2, 100), (4, 240), (5, -480), (6, -1), (7, 0)])
    let hits = harness.standardOutput.filter { $0.contains(" hit ") }
    #expect(hits.sorted() == expected.sorted())
    #expect(hits.count == 4)
    #expect(hits.contains { $0.contains("bar 1 beat 1 sub 1 -10.0 ms") })
    #expect(harness.standardError.first?.hasPrefix("metronome: listening: 4 hits: ") == true)
    #expect(
      harness.standardError.first?.hasSuffix("; 1 not scored (count-in, a click a glitch skipped, or no click near)\n")
        == true)
  }

  /// Two minutes at 100 BPM, a hit on every eighth rushing 1 ms a bar (6 frames an eighth): the
  /// fitted line says rushing 25 ms a minute, and the report's picture draws it.
  @Test func twoMinutesRushingAMillisecondABarFitRushing25MillisecondsAMinute() throws {
    let settings = PlaybackSettings(tempo: try Tempo(bpm: 100), subdivision: try Subdivision(2), length: .seconds(121))
    let (harness, _) = try play(settings, hits: (0..<400).map { ($0, Int64(-6 * $0)) })
    let scorer = try #require(harness.session?.hitScorer)
    #expect(scorer.scored.count == 400)
    let statistics = try #require(scorer.statistics)
    #expect(abs((statistics.driftPerMinute ?? 0) + 25) < 1e-9)
    #expect(harness.standardError.first?.contains(", rushing 25.0 ms a minute") == true)
    #expect(
      ListeningReport.text(of: scorer.scored, tolerance: 20, as: .svg).contains("fitted line: rushing 25.0 ms a minute")
    )
  }

  /// A gap's silent bar is what a gap click practises: hits in it are scored on its silent clicks.
  @Test func hitsInAGapsSilentBarAreScoredOnItsClicks() throws {
    let settings = PlaybackSettings(length: .bars(4), programme: Programme(gap: try Gap(parsing: "1:1", seed: 0)))
    let clicks = clicks(of: settings)
    #expect(clicks[4].isGapMuted && clicks[7].isGapMuted && !clicks[8].isGapMuted)
    let (harness, expected) = try play(settings, hits: [(4, -240), (6, 480), (7, 0), (8, 96)])
    let hits = harness.standardOutput.filter { $0.contains(" hit ") }
    #expect(hits.sorted() == expected.sorted())
    #expect(hits.count == 4)
  }

  @Test func aMapsRampAndItsChangeOfMeterKeepEveryOffsetExact() throws {
    let map = try TempoMapParser.parse("2 4/4 100-160\n1 3/4 72\n", source: "map")
    let settings = PlaybackSettings(programme: Programme(map: map))
    let chosen: [(click: Int, offset: Int64)] = (0..<11).map { ($0, Int64($0 * 37 - 200)) }
    let (harness, expected) = try play(settings, hits: chosen)
    let hits = harness.standardOutput.filter { $0.contains(" hit ") }
    #expect(hits.sorted() == expected.sorted())
    #expect(hits.count == 11)
  }

  @Test func aHitInAPauseIsNotScoredAndOnesAfterItAre() throws {
    // Paused at 1.2 s (after beat 3), playing again at 4.0 s for three beats.
    let settings = PlaybackSettings(length: .beats(6))
    let clicks = clicks(of: PlaybackSettings(length: .beats(3)))
    let harness = try Harness(
      settings, keys: "1.2 space\n4.0 space\n",
      practice: Practice(scorer: HitScorer(tolerance: 20)))
    let onBeatTwo = Hit(frame: clicks[1].frame + 96, note: 38, velocity: 80)
    let inThePause = Hit(frame: 2 * 48_000 + 24_000, note: 38, velocity: 80)
    harness.at(0.6) { $0.receive(.hit(onBeatTwo)) }
    harness.at(2.6) { $0.receive(.hit(inThePause)) }
    harness.run()
    let hits = harness.standardOutput.filter { $0.contains(" hit ") }
    #expect(hits == ["0.502000 hit bar 1 beat 2 +2.0 ms note 38 velocity 80\n"])
    #expect(harness.standardError.first?.contains("1 not scored") == true)
  }

  /// An input cut at full scale while playing is said on the summary line as the run ends;
  /// once the run has ended it is not counted.
  @Test func aMicrophoneThatClippedIsSaidWhenTheRunEnds() throws {
    let harness = try Harness(
      PlaybackSettings(length: .beats(4)), keys: "",
      practice: Practice(scorer: HitScorer(tolerance: 20)))
    harness.at(0.3) { $0.receive(.noticed(.clipped)) }
    harness.at(1.1) { $0.receive(.noticed(.clipped)) }
    harness.run()
    harness.session?.receive(.noticed(.clipped))
    #expect(harness.session?.hitScorer?.clips == 2)
    #expect(
      harness.standardError.first?.hasSuffix(
        "; the microphone clipped 2 times (a hit's start and the click's echo are lost at full scale): turn its gain"
          + " down\n") == true, "\(harness.standardError)")
  }

  @Test func theDisplayShowsTheLastHitOnTheMeterAndTheStatistics() throws {
    let (harness, _) = try play(PlaybackSettings(length: .beats(4)), hits: [(1, -480), (2, 96)], display: true)
    // 2 ms late on a meter of ±40 ms in 21 cells: the cell right of the middle.
    #expect(harness.screen.text.contains(" last +2.0 ms on time  early ·····:····|●···:····· late\n"))
    #expect(
      harness.screen.text.contains(" mean -4.0  median -4.0  sd 6.0 (UR 60)  100% in ±20.0 ms  0 early  0 late\n"))
  }
}

/// A tap-along on the keyboard in virtual time: each typed key is a hit where the clicks were
/// heard when it came, the run ends at the goal, and what concludes it is told of the hits.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct SessionCalibrationTests {
  @Test func typedKeysAreHitsOnTheHeardClicksAndTheGoalEndsTheRun() throws {
    // 120 BPM: a click heard every 0.5 s; keys 12 ms after clicks 2 to 5 (the fake device's
    // delay of 1024 frames is when each click is heard).
    var scorer = HitScorer(tolerance: 20)
    scorer.goal = 3
    var concluded: [Double] = []
    let practice = Practice(scorer: scorer, keysAreHits: true) { scorer in
      concluded = scorer.scored.map(\.offsetMilliseconds)
      return (["concluded"], nil)
    }
    let harness = try Harness(PlaybackSettings(), practice: practice)
    for click in 1...4 {
      harness.at(Double(click) * 0.5 + 1_024.0 / 48_000 + 0.012) { $0.receive(.command(.togglePlaying)) }
    }
    harness.run()
    #expect(concluded == [12, 12, 12])
    #expect(harness.standardOutput.filter { $0.contains(" hit ") }.count == 3)
    #expect(harness.standardOutput.contains("1.012000 hit bar 1 beat 3 +12.0 ms key\n"))
    #expect(harness.standardError.contains("metronome: concluded\n"))
    // The keys were hits, not play/pause: every beat until the goal played.
    #expect(harness.engine.viewModel.currentState.isPlaying)
    #expect(harness.exitStatus == 0)
  }

  @Test func theDisplayCountsTheHitsToTheGoalAndSaysEveryKeyIsAHit() throws {
    var scorer = HitScorer(tolerance: 20)
    scorer.goal = 32
    let harness = try Harness(
      PlaybackSettings(length: .beats(4)), display: true,
      practice: Practice(scorer: scorer, keysAreHits: true))
    var screens: [String] = []
    harness.at(0.3) { _ in screens.append(harness.screen.text) }
    harness.at(0.5 + 1_024.0 / 48_000 + 0.005) { $0.receive(.command(.togglePlaying)) }
    harness.at(1.3) { _ in screens.append(harness.screen.text) }
    harness.run()
    #expect(screens.count == 2)
    #expect(screens.first?.contains(" hit along with the click: 0 of 32\n") == true)
    #expect(screens.first?.contains(" any key: a hit · q Esc quit") == true)
    #expect(screens.first?.contains("play/pause") == false)
    #expect(screens.last?.contains(" hit along with the click: 1 of 32\n last +5.0 ms on time") == true)
  }

  /// A hit on a beat a glitch skipped (it never sounded) is not scored against the beat beside
  /// it; one on the next beat that sounded is.
  @Test func aHitOnABeatAGlitchSkippedIsNotScoredAgainstTheNext() throws {
    let harness = try Harness(
      PlaybackSettings(length: .beats(4)), practice: Practice(scorer: HitScorer(tolerance: 20)))
    // The first period's glitch loses the beat at 24 000, which is skipped.
    harness.sink.lostFrames = [24_000]
    for frame: Int64 in [24_000 + 100, 48_000 - 50] {
      let hit = Hit(frame: frame, note: 38, velocity: 100)
      harness.at(Double(frame) / 48_000 + 0.03) { $0.receive(.hit(hit)) }
    }
    harness.run()
    let hits = harness.standardOutput.filter { $0.contains(" hit ") }
    #expect(hits.count == 1 && hits.first?.contains(" -1.0 ms") == true, "\(hits)")
    #expect(harness.standardError.first?.hasPrefix("metronome: listening: 1 hit: ") == true)
    #expect(
      harness.standardError.first?.hasSuffix("; 1 not scored (count-in, a click a glitch skipped, or no click near)\n")
        == true, "\(harness.standardError)")
  }
}
