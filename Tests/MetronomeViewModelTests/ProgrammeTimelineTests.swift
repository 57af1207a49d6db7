import CombineSchedulers
import Foundation
import MetronomeAudio
import MetronomeCore
import MetronomeTesting
import MetronomeViewModel
import OpenCombineShim
import XCTest

/// Count-ins, tempo maps and the speed trainer: exact timelines in virtual time.
final class ProgrammeTimelineTests: TimeLimitedTestCase {
  private var scheduler: TestScheduler<AudioTime, Never>!

  override func setUp() {
    super.setUp()
    scheduler = TestScheduler(now: 0)
  }

  private func makeViewModel(tempo: Double = 120, _ programme: Programme) throws -> MetronomeViewModel {
    MetronomeViewModel(
      initialTempo: try Tempo(bpm: tempo), programme: programme, autoplay: true,
      beatScheduler: scheduler.limited().eraseToBeatScheduler())
  }

  /// Each beat as "bar.beat@frame", with "count-in" or its section and bar in it when it has one.
  private func record(_ viewModel: MetronomeViewModel) -> TestRecorder<AudioTime, String, Never> {
    scheduler.record(
      viewModel.beat.map { beat in
        let place =
          beat.isCountIn ? " count-in" : beat.section.map { " s\($0.index) b\($0.barInSection)" } ?? ""
        return "\(beat.song.map { "song \($0) " } ?? "")\(beat.bar).\(beat.beatInBar)@\(beat.frame)\(place)"
      })
  }

  private func advance(toFrame frame: Int64) { scheduler.advance(to: AudioTime(frame: frame, sampleRate: .standard)) }

  func testACountInOfOneBarAt120PutsTheFirstBarOfMusicAtFrame96000() throws {
    let viewModel = try makeViewModel(Programme(countIn: .bars(1)))
    let beats = record(viewModel)

    advance(toFrame: 120_000)

    XCTAssertEqual(
      beats.values,
      [
        "0.1@0 count-in", "0.2@24000 count-in", "0.3@48000 count-in", "0.4@72000 count-in", "1.1@96000",
        "1.2@120000",
      ])
  }

  /// klick's `-c 0`: two beats, then bar one.
  func testACountInOfNoBarsCountsTwoBeats() throws {
    let viewModel = try makeViewModel(Programme(countIn: .bars(0)))
    let beats = record(viewModel)

    advance(toFrame: 48_000)

    XCTAssertEqual(beats.values, ["0.1@0 count-in", "0.2@24000 count-in", "1.1@48000"])
  }

  /// A count-in of three beats in 4/4 is the last three beats of a bar, 2, 3 and 4, leading
  /// into bar one.
  func testACountInOfBeatsLeadsIntoBarOne() throws {
    let viewModel = try makeViewModel(Programme(countIn: .beats(3)))
    let beats = record(viewModel)
    let levels = scheduler.record(viewModel.beat.map(\.level))

    advance(toFrame: 72_000)

    XCTAssertEqual(beats.values, ["0.2@0 count-in", "0.3@24000 count-in", "0.4@48000 count-in", "1.1@72000"])
    XCTAssertEqual(levels.values, [.normal, .normal, .normal, .strong])
  }

  /// A gap of 3:1 mutes every fourth bar: its beats are counted, silent and marked, and the next
  /// click after it is on the grid.
  func testAGapOfThreeToOneMutesEveryFourthBarAndComesBackOnTheGrid() throws {
    let viewModel = try makeViewModel(Programme(gap: .bars(play: 3, mute: 1)))
    var beats: [Beat] = []
    let recording = viewModel.beat.sink { beats.append($0) }

    advance(toFrame: 8 * 96_000)
    recording.cancel()

    XCTAssertEqual(beats.map(\.frame), (0...32).map { Int64($0) * 24_000 })
    XCTAssertEqual(beats.filter(\.isGapMuted).map(\.bar), Array(repeating: 4, count: 4) + Array(repeating: 8, count: 4))
    XCTAssertTrue(beats.filter(\.isGapMuted).allSatisfy { $0.level == .silent })
    XCTAssertEqual(beats[16].bar, 5)
    XCTAssertEqual(beats[16].level, .strong)
  }

  /// A map's sections set each beat's meter and frame; its end is marked by one silent beat and
  /// nothing follows.
  func testAMapPlaysItsSectionsThenEnds() throws {
    let map = try TempoMapParser.parse("intro: 1 2/4 120\n1 3/8 60 X.x\n", source: "map")
    let viewModel = try makeViewModel(Programme(map: map))
    let beats = record(viewModel)
    let levels = scheduler.record(viewModel.beat.map(\.level))

    advance(toFrame: 10_000_000)

    // 2/4 at 120: 24000 frames a beat; 3/8 at 60 (quarter notes): 24000 frames an eighth.
    XCTAssertEqual(
      beats.values,
      ["1.1@0 s0 b1", "1.2@24000 s0 b1", "2.1@48000 s1 b1", "2.2@72000 s1 b1", "2.3@96000 s1 b1", "3.1@120000"])
    XCTAssertEqual(levels.values, [.strong, .normal, .strong, .silent, .normal, .silent])
  }

  /// `80-120/10` as klick plays it: a ramp over ceil(10 × 40) = 400 bars, the tempo changing evenly
  /// from beat to beat, each beat as long as the logarithmic mean of its ends; 120 from bar 401 on.
  func testKlicksTrainerReaches120AtBar401() throws {
    let trainer = try XCTUnwrap(
      TempoMap.klickTrainer(from: 80, to: 120, barsPerBPM: 10, meter: .fourFour, pattern: nil))
    XCTAssertEqual(trainer.sections.map(\.bars), [400, nil])
    let viewModel = try makeViewModel(tempo: 80, Programme(map: trainer))
    var beats: [Beat] = []
    let recording = viewModel.beat.sink { beats.append($0) }

    // 1600 beats of the ramp take 240/4 × 1600/40 × ln(120/80) seconds.
    let rampSeconds = 60.0 * 1_600 / 40 * log(1.5)
    advance(toFrame: Int64(rampSeconds * 48_000) + 24_000)
    recording.cancel()

    XCTAssertEqual(beats.count, 1_602)
    XCTAssertEqual(beats[1_600].bar, 401)
    XCTAssertEqual(beats[1_600].frame, Int64((rampSeconds * 48_000).rounded()))
    XCTAssertEqual(beats[1_600].tempo.bpm, 120)
    XCTAssertEqual(beats[1_601].frame - beats[1_600].frame, 24_000)
    XCTAssertEqual(beats[800].tempo.bpm, 100)
    XCTAssertLessThan(beats[1_599].tempo.bpm, 120)
  }

  /// A step trainer of +5 BPM every 4 bars from 100 to 120 changes tempo exactly on bars 5, 9, 13
  /// and 17, each new tempo's first beat one old beat after the last, and holds 120; with `loops`
  /// it plays 120 for 4 bars and starts again at 100 on bar 21.
  func testAStepTrainerChangesTempoOnItsBarsAndKeepsThePhase() throws {
    for loops in [false, true] {
      scheduler = TestScheduler(now: 0)
      let map = try XCTUnwrap(
        TempoMap.stepTrainer(
          from: 100, to: 120, step: 5, every: .bars(4), meter: .fourFour, pattern: nil, loops: loops))
      let viewModel = try makeViewModel(tempo: 100, Programme(map: map))
      var beats: [Beat] = []
      let recording = viewModel.beat.sink { beats.append($0) }

      // Up to bar 25, where the loop would step up again.
      advance(toFrame: 2_500_000)
      recording.cancel()

      let changes = zip(beats, beats.dropFirst()).filter { $0.tempo != $1.tempo }.map { ($1.bar, $1.tempo.bpm) }
      let expected: [(Int, Double)] = [(5, 105), (9, 110), (13, 115), (17, 120)] + (loops ? [(21, 100)] : [])
      XCTAssertEqual(changes.map(\.0), expected.map(\.0), "loops: \(loops)")
      XCTAssertEqual(changes.map(\.1), expected.map(\.1), "loops: \(loops)")
      // Every beat follows the one before by the earlier beat's own length, as the exact sum gives.
      var exact = 0.0
      for (beat, next) in zip(beats, beats.dropFirst()) {
        exact += 48_000 * 60 / beat.tempo.bpm
        XCTAssertEqual(next.frame, Int64(exact.rounded()), "loops: \(loops), bar \(next.bar)")
      }
    }
  }

  /// Looping a section repeats it seamlessly, no gap and no beat twice at the seam, until the loop
  /// is turned off; the map then goes on with the next section.
  func testALoopedSectionRepeatsSeamlesslyUntilReleased() throws {
    let map = try TempoMapParser.parse("a: 2 2/4 120\nb: 1 3/4 60\n", source: "map")
    let viewModel = try makeViewModel(Programme(map: map))
    let beats = record(viewModel)
    scheduler.schedule(after: AudioTime(frame: 10_000, sampleRate: .standard)) {
      viewModel.actions.send(.toggleSectionLoop)
    }
    scheduler.schedule(after: AudioTime(frame: 150_000, sampleRate: .standard)) {
      viewModel.actions.send(.toggleSectionLoop)
    }

    advance(toFrame: 10_000_000)

    XCTAssertEqual(
      beats.values,
      [
        "1.1@0 s0 b1", "1.2@24000 s0 b1", "2.1@48000 s0 b2", "2.2@72000 s0 b2", "3.1@96000 s0 b1",
        "3.2@120000 s0 b1", "4.1@144000 s0 b2", "4.2@168000 s0 b2", "5.1@192000 s1 b1", "5.2@240000 s1 b1",
        "5.3@288000 s1 b1", "6.1@336000",
      ])
  }

  /// The next and previous sections start on the next beat, which keeps its frame.
  func testJumpsMoveToTheNextAndPreviousSectionFromTheNextBeat() throws {
    let map = try TempoMapParser.parse("a: 2 2/4 120\nb: 1 3/4 60\nc: 1 1/4 240\n", source: "map")
    let viewModel = try makeViewModel(Programme(map: map))
    let beats = record(viewModel)
    scheduler.schedule(after: AudioTime(frame: 30_000, sampleRate: .standard)) {
      viewModel.actions.send(.jumpSection(by: 1))
    }
    scheduler.schedule(after: AudioTime(frame: 50_000, sampleRate: .standard)) {
      viewModel.actions.send(.jumpSection(by: -1))
    }

    advance(toFrame: 10_000_000)

    XCTAssertEqual(
      beats.values,
      [
        "1.1@0 s0 b1", "1.2@24000 s0 b1", "2.1@48000 s1 b1", "3.1@96000 s0 b1", "3.2@120000 s0 b1",
        "4.1@144000 s0 b2", "4.2@168000 s0 b2", "5.1@192000 s1 b1", "5.2@240000 s1 b1", "5.3@288000 s1 b1",
        "6.1@336000 s2 b1", "7.1@348000",
      ])
  }

  /// A tempo key while a map plays scales the map from the next beat, keeping the phase: at 150
  /// the 120 BPM beats of the map follow each other every 19200 frames instead of 24000.
  func testATempoChangeScalesTheMapFromTheNextBeat() throws {
    let map = try TempoMapParser.parse("2 120\n1 60\n", source: "map")
    let viewModel = try makeViewModel(Programme(map: map))
    let beats = record(viewModel)
    scheduler.schedule(after: AudioTime(frame: 30_000, sampleRate: .standard)) { viewModel.tempo.send(150) }

    advance(toFrame: 10_000_000)

    XCTAssertEqual(
      beats.values.map { $0.split(separator: " ")[0] },
      [
        "1.1@0", "1.2@24000", "1.3@43200", "1.4@62400", "2.1@81600", "2.2@100800", "2.3@120000", "2.4@139200",
        "3.1@158400", "3.2@196800", "3.3@235200", "3.4@273600", "4.1@312000",
      ])
  }

  /// A section's own subdivision, swing and gap: its beats divided and muted as it says, bar
  /// counted from its first, and the next section's plain again, all on the grid.
  func testASectionDividesAndMutesItsOwnBeats() throws {
    let map = try TempoMapParser.parse("2 2/4 120 swing=60\n2 2/4 120 sub=3 gap=1:1\n1 2/4 120\n", source: "map")
    let viewModel = try makeViewModel(Programme(map: map))
    var beats: [Beat] = []
    let recording = viewModel.beat.sink { beats.append($0) }

    advance(toFrame: 10_000_000)
    recording.cancel()

    let clicks = beats.filter { !$0.isMapEnd }.map { "\($0.bar).\($0.beatInBar)+\($0.subdivision)@\($0.frame)" }
    // Swung eighths: the second click 60 % into each pair, 0.6 × 2 × 12000 = 14400 frames after its beat.
    XCTAssertEqual(clicks.prefix(4), ["1.1+0@0", "1.1+1@14400", "1.2+0@24000", "1.2+1@38400"])
    // Triplets in the second section, whose second bar (bar 4) the gap mutes.
    XCTAssertEqual(
      clicks[8...13], ["3.1+0@96000", "3.1+1@104000", "3.1+2@112000", "3.2+0@120000", "3.2+1@128000", "3.2+2@136000"])
    XCTAssertEqual(beats.filter(\.isGapMuted).map(\.bar), Array(repeating: 4, count: 6))
    XCTAssertEqual(clicks.suffix(2), ["5.1+0@192000", "5.2+0@216000"])
  }

  /// A random gap mutes the bars it draws, bar one never, and the clicks stay on the grid.
  func testARandomGapMutesTheBarsItDrawsOnTheGrid() throws {
    let gap = Gap.random(percent: 30, byBeat: false, seed: 11)
    let viewModel = try makeViewModel(Programme(gap: gap))
    var beats: [Beat] = []
    let recording = viewModel.beat.sink { beats.append($0) }

    advance(toFrame: 40 * 96_000)
    recording.cancel()

    XCTAssertEqual(beats.map(\.frame), (0...160).map { Int64($0) * 24_000 })
    let mutedBars = Set(beats.filter(\.isGapMuted).map(\.bar))
    XCTAssertEqual(mutedBars, Set((1...41).filter { gap.mutes(bar: $0, count: 0) }))
    XCTAssertFalse(mutedBars.isEmpty)
    XCTAssertTrue(beats.filter(\.isGapMuted).allSatisfy { $0.level == .silent })
  }

  /// `--loop-bars 2-3` starts at bar 2 and repeats bars 2 and 3 across a change of section and
  /// tempo, seamlessly, until the loop is released; then the map plays on from where it is.
  func testABarRangeLoopsAcrossSectionsUntilReleased() throws {
    let map = try TempoMapParser.parse("a: 2 2/4 120\nb: 2 2/4 60\n", source: "map")
    XCTAssertEqual(map.firstBeat(ofBar: 3), 4)
    XCTAssertEqual(map.barCount, 4)
    XCTAssertNil(map.firstBeat(ofBar: 5))
    var programme = Programme(map: map, loopBars: 2...3)
    programme.countIn = .bars(0)
    let viewModel = try makeViewModel(programme)
    let beats = record(viewModel)
    scheduler.schedule(after: AudioTime(frame: 300_000, sampleRate: .standard)) {
      viewModel.actions.send(.toggleSectionLoop)
    }

    advance(toFrame: 10_000_000)

    XCTAssertEqual(
      beats.values,
      [
        "0.1@0 count-in", "0.2@24000 count-in", "1.1@48000 s0 b2", "1.2@72000 s0 b2", "2.1@96000 s1 b1",
        "2.2@144000 s1 b1", "3.1@192000 s0 b2", "3.2@216000 s0 b2", "4.1@240000 s1 b1", "4.2@288000 s1 b1",
        "5.1@336000 s1 b2", "5.2@384000 s1 b2", "6.1@432000",
      ])
  }

  /// Two songs of a bar of 2/4 each, at 120 then at 60.
  private func twoSongs(waiting: Bool = false) throws -> Setlist {
    let songs = try ["1 2/4 120", "1 2/4 60"].enumerated().map { index, line in
      Setlist.Song(title: "song \(index)", map: try TempoMapParser.parse(line, source: "song"))
    }
    return Setlist(songs: songs, waitsBetweenSongs: waiting)
  }

  /// Each song is counted in by a bar, at its own tempo, on the frame the one before it ended;
  /// the set ends with the last song's end.
  func testASetlistCountsInEachSongWhereTheOneBeforeEnded() throws {
    let viewModel = try makeViewModel(Programme(setlist: try twoSongs()))
    let beats = record(viewModel)

    advance(toFrame: 10_000_000)

    XCTAssertEqual(
      beats.values,
      [
        "song 0 0.1@0 count-in", "song 0 0.2@24000 count-in", "song 0 1.1@48000 s0 b1", "song 0 1.2@72000 s0 b1",
        "song 0 2.1@96000", "song 1 0.1@96000 count-in", "song 1 0.2@144000 count-in", "song 1 1.1@192000 s0 b1",
        "song 1 1.2@240000 s0 b1", "song 1 2.1@288000",
      ])
  }

  /// A setlist that waits between songs stops on the next one at a song's end, at its tempo;
  /// play counts it in from where play was pressed.
  func testASetlistThatWaitsStopsOnTheNextSongUntilPlay() throws {
    let viewModel = try makeViewModel(Programme(setlist: try twoSongs(waiting: true)))
    let beats = record(viewModel)
    let tempo = scheduler.record(viewModel.tempoText)
    scheduler.schedule(after: AudioTime(frame: 200_000, sampleRate: .standard)) { viewModel.tappedPlayPause.send(()) }

    advance(toFrame: 10_000_000)

    XCTAssertEqual(
      beats.values.suffix(6),
      [
        "song 0 2.1@96000", "song 1 0.1@200000 count-in", "song 1 0.2@248000 count-in", "song 1 1.1@296000 s0 b1",
        "song 1 1.2@344000 s0 b1", "song 1 2.1@392000",
      ])
    XCTAssertEqual(tempo.values, ["120 BPM", "60 BPM"])
    XCTAssertEqual(tempo.events.last?.time, AudioTime(frame: 96_000, sampleRate: .standard))
  }

  /// The next-song key stops the song at once and counts in the next from the first frame not
  /// yet played; the previous-song key on the first song does nothing.
  func testSongKeysStopAndCountInTheOtherSong() throws {
    let viewModel = try makeViewModel(Programme(setlist: try twoSongs()))
    let beats = record(viewModel)
    scheduler.schedule(after: AudioTime(frame: 10_000, sampleRate: .standard)) {
      viewModel.actions.send(.moveSong(by: -1))
    }
    scheduler.schedule(after: AudioTime(frame: 30_000, sampleRate: .standard)) {
      viewModel.actions.send(.moveSong(by: 1))
    }

    advance(toFrame: 10_000_000)

    XCTAssertEqual(
      beats.values,
      [
        "song 0 0.1@0 count-in", "song 0 0.2@24000 count-in", "song 1 0.1@30000 count-in",
        "song 1 0.2@78000 count-in", "song 1 1.1@126000 s0 b1", "song 1 1.2@174000 s0 b1", "song 1 2.1@222000",
      ])
  }

  /// Following an outside clock: the beats start on the anchor's frame, numbered from its bar and
  /// beat, at its tempo, marked with its source; a new anchor starts them again on its grid, and
  /// none stops them.
  func testBeatsFollowAnOutsideClocksAnchors() throws {
    let viewModel = MetronomeViewModel(
      initialTempo: .standard, autoplay: false, cap: NumeratorCap(atLeast: NumeratorCap.ceiling),
      beatScheduler: scheduler.limited().eraseToBeatScheduler())
    var beats: [Beat] = []
    let recording = viewModel.beat.sink { beats.append($0) }
    let waltz = try Meter(3, 4)
    let first = TransportAnchor(
      id: 1, source: .jack, frame: 10_000, bar: 5, beatInBar: 3, tempo: try Tempo(bpm: 60), meter: waltz)
    let second = TransportAnchor(
      id: 2, source: .jack, frame: 200_000, bar: 1, beatInBar: 1, tempo: .standard, meter: .fourFour)
    scheduler.schedule(after: AudioTime(frame: 1_000, sampleRate: .standard)) { viewModel.actions.send(.follow(first)) }
    scheduler.schedule(after: AudioTime(frame: 150_000, sampleRate: .standard)) {
      viewModel.actions.send(.follow(second))
    }
    scheduler.schedule(after: AudioTime(frame: 230_000, sampleRate: .standard)) { viewModel.actions.send(.follow(nil)) }

    advance(toFrame: 1_000_000)
    recording.cancel()

    XCTAssertEqual(
      beats.map { "\($0.bar).\($0.beatInBar)@\($0.frame)" },
      ["5.3@10000", "6.1@58000", "6.2@106000", "1.1@200000", "1.2@224000"])
    XCTAssertTrue(beats.allSatisfy { $0.syncSource == .jack })
    XCTAssertEqual(beats[0].meter, waltz)
    XCTAssertEqual(viewModel.currentState.isPlaying, false)
  }

  /// The beats played, from a time of 0, when a clock's anchor at frame 0 is followed and at
  /// `sentAt` a new one puts beat two on `nudgedTo`, until `until`.
  private func beatsFollowing(nudgedTo: Int64, sentAt: Int64, until: Int64) -> [String] {
    scheduler = TestScheduler(now: 0)
    let viewModel = MetronomeViewModel(autoplay: false, beatScheduler: scheduler.limited().eraseToBeatScheduler())
    var beats: [Beat] = []
    let recording = viewModel.beat.sink { beats.append($0) }
    let first = TransportAnchor(
      id: 1, source: .jack, frame: 0, bar: 1, beatInBar: 1, tempo: .standard, meter: .fourFour)
    let nudged = TransportAnchor(
      id: 2, source: .jack, frame: nudgedTo, bar: 1, beatInBar: 2, tempo: .standard, meter: .fourFour)
    viewModel.actions.send(.follow(first))
    scheduler.schedule(after: AudioTime(frame: sentAt, sampleRate: .standard)) {
      viewModel.actions.send(.follow(nudged))
    }
    advance(toFrame: until)
    recording.cancel()
    return beats.map { "\($0.bar).\($0.beatInBar)@\($0.frame)" }
  }

  /// A new anchor whose first beat is the one just played, a few frames off, does not play it
  /// again: the beats go on from the next, whether the anchor puts it a little before (already
  /// past) or a little after (still to come).
  func testANewAnchorNeverPlaysABeatTwice() throws {
    XCTAssertEqual(
      beatsFollowing(nudgedTo: 23_994, sentAt: 24_100, until: 72_000), ["1.1@0", "1.2@24000", "1.3@47994", "1.4@71994"])
    XCTAssertEqual(
      beatsFollowing(nudgedTo: 24_006, sentAt: 24_001, until: 72_100), ["1.1@0", "1.2@24000", "1.3@48006", "1.4@72006"])
  }
}
