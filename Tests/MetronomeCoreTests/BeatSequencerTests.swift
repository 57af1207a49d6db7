import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct BeatSequencerTests {
  private func sequencer(_ bpm: Double, _ meter: Meter = .fourFour) throws -> BeatSequencer {
    BeatSequencer(startFrame: 0, tempo: try Tempo(bpm: bpm), meter: meter, sampleRate: .standard)
  }

  @Test func countsBarsAndBeatsFromOne() throws {
    var beats = try sequencer(120, Meter(3, 4))
    let played = (0..<4).map { _ in beats.advance() }
    #expect(played.map { [$0.bar, $0.beatInBar] } == [[1, 1], [1, 2], [1, 3], [2, 1]])
    #expect(played.map(\.kind) == [.first, .regular, .regular, .first])
    #expect(played.map(\.parity) == [.even, .odd, .even, .odd])
  }

  @Test func aChangeBeforeTheFirstBeatMovesThatBeat() throws {
    var beats = try sequencer(120)
    beats.change(tempo: try Tempo(bpm: 60), meter: .fourFour, earliestFrame: 0)
    #expect(beats.advance().frame == 0)
    #expect(beats.nextFrame == 48_000)
  }

  @Test func aNumeratorOnlyChangeKeepsTheGrid() throws {
    var beats = try sequencer(137)
    for _ in 0..<5 { _ = beats.advance() }
    let before = try #require(beats.nextFrame)
    beats.change(tempo: try Tempo(bpm: 137), meter: try Meter(3, 4), earliestFrame: before - 10)
    #expect(beats.nextFrame == before)
  }

  @Test func aShrunkenBarWrapsToBeatOne() throws {
    var beats = try sequencer(120)
    for _ in 0..<3 { _ = beats.advance() }
    beats.change(tempo: .standard, meter: try Meter(2, 4), earliestFrame: 0)
    let next = beats.advance()
    #expect([next.bar, next.beatInBar] == [2, 1])
  }

  @Test func beatsSoundAtThePatternsLevelsWhileItFitsTheMeter() throws {
    let pattern = try AccentPattern(parsing: "X.o")
    var beats = BeatSequencer(
      startFrame: 0, tempo: .standard, meter: try Meter(3, 4), rhythm: Rhythm(pattern: pattern), sampleRate: .standard)
    #expect((0..<4).map { _ in beats.advance().level } == [.strong, .silent, .weak, .strong])
    // A bar of another length plays the standard levels, and the pattern's again when it fits.
    beats.change(tempo: .standard, meter: .fourFour, rhythm: Rhythm(pattern: pattern), earliestFrame: 0)
    #expect((0..<4).map { _ in beats.advance().level } == [.normal, .normal, .normal, .strong])
    beats.change(tempo: .standard, meter: try Meter(3, 4), rhythm: Rhythm(pattern: pattern), earliestFrame: 0)
    #expect((0..<3).map { _ in beats.advance().level } == [.silent, .weak, .strong])
  }

  /// A remote control's gains scale the clicks from the next beat: the accented ones by their
  /// factor, every other click (a subdivision's, the count-in's normal beats) by the other, all by
  /// the overall one, each on top of the volume its map section gives.
  @Test func gainsScaleEachClickByItsLevelFromTheNextBeat() throws {
    let map = try TempoMapParser.parse("1 2/4 120 0.5\n", source: "map")
    let gains = ClickGains(overall: 0.5, accented: 2, unaccented: 0.25)
    let programme = Programme(map: map, countIn: .bars(1))
    var beats = BeatSequencer(
      startFrame: 0, tempo: .standard, meter: .fourFour, rhythm: Rhythm(subdivision: try Subdivision(2), gains: gains),
      programme: programme, sampleRate: .standard)
    let countIn = (0..<2).map { _ in beats.advance() }
    #expect(countIn.map(\.isCountIn) == [true, true])
    #expect(countIn.map(\.volume) == [1, 0.125])
    let bar = (0..<3).map { _ in beats.advance() }
    #expect(bar.map(\.subdivision) == [0, 1, 0])
    #expect(bar.map(\.volume) == [0.5, 0.0625, 0.0625])
    beats.change(
      tempo: .standard, meter: .fourFour, rhythm: Rhythm(subdivision: try Subdivision(2)), programme: programme,
      earliestFrame: 0)
    let afterTheChange = beats.advance()
    #expect(afterTheChange.subdivision == 1)
    #expect(afterTheChange.volume == 0.5)
  }

  /// A count-in of five beats in 4/4 is the last beat of bar -1 and the whole of bar 0.
  @Test func aCountInOfBeatsEndsItsBarsAtBarZero() throws {
    var sequencer = BeatSequencer(
      startFrame: 0, tempo: .standard, meter: .fourFour, programme: Programme(countIn: .beats(5)),
      sampleRate: .standard)
    let played = (0..<6).map { _ in sequencer.advance() }
    #expect(played.map(\.bar) == [-1, 0, 0, 0, 0, 1])
    #expect(played.map(\.beatInBar) == [4, 1, 2, 3, 4, 1])
  }

  /// klick's speed trainer ramps the player's tempo from its start, a count-in included, and only
  /// that: a map plays its own tempo whatever trainer is set.
  @Test func theSpeedTrainerStartsTheCountInAtItsStartAndLeavesAMapAlone() throws {
    var programme = Programme(countIn: .beats(2))
    programme.speedTrainer = SpeedTrainer(increment: 4, start: 100, limit: 0)
    var steady = BeatSequencer(
      startFrame: 0, tempo: try Tempo(bpm: 120), meter: .fourFour, programme: programme, sampleRate: .standard)
    let played = (0..<5).map { _ in steady.advance() }
    #expect(played.map(\.isCountIn) == [true, true, false, false, false])
    #expect(played.map(\.tempo.bpm) == [100, 100, 100, 100, 101])
    programme.map = TempoMap(sections: [TempoMap.Section(bars: 2, meter: .fourFour, tempo: .steady(96))])
    var mapped = BeatSequencer(
      startFrame: 0, tempo: try Tempo(bpm: 96), meter: .fourFour, programme: programme, sampleRate: .standard)
    #expect((0..<5).map { _ in mapped.advance().tempo.bpm } == [96, 96, 96, 96, 96])
  }
}
