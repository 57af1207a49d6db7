import MetronomeCore
import Testing

/// A tempo map as a source of beats: each section's meter, tempo and levels, the end marked,
/// a multiplier scaling it from the next beat, jumps and loops that keep the phase.
@Suite(.timeLimit(.minutes(1)))
struct MapTempoTests {
  /// A bar of 3/4 at 120 (24 000 frames a beat), then a bar of 2/4 at 60 (48 000).
  private let map: TempoMap

  init() throws {
    map = try TempoMapParser.parse("first: 1 3/4 120 X.x\nsecond: 1 2/4 60\n", source: "map")
  }

  /// The map's beats from `source` up to its end, each after the one before.
  private func beats(of source: inout MapTempo, count: Int = 10) -> [SourcedBeat] {
    var placed: [SourcedBeat] = []
    while placed.count < count, source.nextBeatFrame != nil {
      placed.append(source.nextBeat(after: nil, rhythm: Rhythm()))
    }
    return placed
  }

  @Test func eachSectionSetsItsBeatsAndTheEndIsMarked() {
    var source = MapTempo(map: map, programme: Programme(map: map), startFrame: 0, sampleRate: .standard)
    let placed = beats(of: &source)
    #expect(placed.map(\.frame) == [0, 24_000, 48_000, 72_000, 120_000, 168_000])
    #expect(placed.map(\.meter.numerator) == [3, 3, 3, 2, 2, 2])
    #expect(placed.map(\.beatInBar) == [1, 2, 3, 1, 2, 1])
    #expect(placed.map(\.level) == [.strong, .silent, .normal, .strong, .normal, .silent])
    #expect(placed.map { $0.section?.index } == [0, 0, 0, 1, 1, nil])
    #expect(placed.map(\.isMapEnd) == [false, false, false, false, false, true])
    #expect(source.nextBeatFrame == nil)
  }

  @Test func aMultiplierScalesTheMapFromTheBeatAfterTheLast() {
    var source = MapTempo(map: map, programme: Programme(map: map), startFrame: 0, sampleRate: .standard)
    _ = beats(of: &source, count: 2)
    let cut = source.change(
      tempo: .standard, meter: .fourFour, programme: Programme(map: map, multiplier: 2), earliestFrame: 30_000,
      lastBeatFrame: 24_000)
    #expect(cut)
    #expect(source.nextBeatFrame == 36_000)
    #expect(source.startTempo.bpm == 240)
  }

  /// Beats after a new multiplier keep the map's exact spacing from the last beat: the next one
  /// is rounded to its frame, the ones after are not placed from that rounding (at 7 times,
  /// half a second is 3 428.57 frames).
  @Test func aMultiplierKeepsTheExactSpacingFromTheLastBeat() {
    var source = MapTempo(map: map, programme: Programme(map: map), startFrame: 0, sampleRate: .standard)
    _ = beats(of: &source, count: 2)
    _ = source.change(
      tempo: .standard, meter: .fourFour, programme: Programme(map: map, multiplier: 7), earliestFrame: 27_429,
      lastBeatFrame: 24_000)
    let placed = beats(of: &source, count: 2)
    #expect(placed.map(\.frame) == [27_429, 30_857])
  }

  @Test func aJumpStartsTheNextSectionOnTheNextBeatsFrame() {
    var source = MapTempo(map: map, programme: Programme(map: map), startFrame: 0, sampleRate: .standard)
    _ = beats(of: &source, count: 1)
    let cut = source.receive(.jump(by: 1))
    #expect(cut)
    let next = source.nextBeat(after: nil, rhythm: Rhythm())
    #expect(next.frame == 24_000)
    #expect(next.section?.index == 1)
    #expect(next.meter.numerator == 2)
  }

  /// A looped section starts again on the frame its next beat would have had: no gap, no beat twice.
  @Test func aLoopedSectionRepeatsSeamlessly() {
    var programme = Programme(map: map)
    programme.loopsSection = true
    var source = MapTempo(map: map, programme: programme, startFrame: 0, sampleRate: .standard)
    let placed = beats(of: &source, count: 7)
    #expect(placed.map(\.frame) == [0, 24_000, 48_000, 72_000, 96_000, 120_000, 144_000])
    #expect(placed.map { $0.section?.index } == [0, 0, 0, 0, 0, 0, 0])
  }

  /// FIXED: bars looped from a section's first bar started with the section before, which the
  /// loop took for the one just played.
  @Test func loopedBarsStartAtTheirFirst() {
    let programme = Programme(map: map, loopBars: 2...2)
    var source = MapTempo(map: map, programme: programme, startFrame: 500, sampleRate: .standard)
    #expect(source.startTempo.bpm == 60)
    #expect(source.startSection.meter.numerator == 2)
    let placed = beats(of: &source, count: 4)
    #expect(placed.map(\.frame) == [500, 48_500, 96_500, 144_500])
    #expect(placed.map(\.beatInBar) == [1, 2, 1, 2])
  }
  /// FIXED: with a section looping, a jump went back to the start of the section it left; it now
  /// plays the section it jumped to, and loops that one.
  @Test func aJumpWhileLoopingMovesOnAndLoopsTheNewSection() {
    var programme = Programme(map: map)
    programme.loopsSection = true
    var source = MapTempo(map: map, programme: programme, startFrame: 0, sampleRate: .standard)
    _ = beats(of: &source, count: 1)
    _ = source.receive(.jump(by: 1))
    let placed = beats(of: &source, count: 4)
    #expect(placed.map(\.frame) == [24_000, 72_000, 120_000, 168_000])
    #expect(placed.map { $0.section?.index } == [1, 1, 1, 1])
    #expect(placed.map(\.beatInBar) == [1, 2, 1, 2])
  }

  /// A bar's frames are on its first beat only, for the second voice to divide.
  @Test func aBarsLengthIsOnItsFirstBeat() {
    var source = MapTempo(map: map, programme: Programme(map: map), startFrame: 0, sampleRate: .standard)
    let placed = beats(of: &source, count: 5)
    #expect(placed.map(\.barLength) == [72_000, 0, 0, 96_000, 0])
  }

  /// A bar of one beat (1/4), then a bar of 2/4, then one of 3/4, each at 120.
  private func oneBeatFirst() throws -> TempoMap {
    try TempoMapParser.parse("a: 1 1/4 120\nb: 1 2/4 120\nc: 1 3/4 120\n", source: "map")
  }

  /// Before any beat, the section playing is the first, however short.
  @Test func aJumpBeforeTheFirstBeatMovesFromTheFirstSection() throws {
    let map = try oneBeatFirst()
    var source = MapTempo(map: map, programme: Programme(map: map), startFrame: 0, sampleRate: .standard)
    _ = source.receive(.jump(by: 1))
    #expect(source.nextBeat(after: nil, rhythm: Rhythm()).section?.index == 1)
  }

  /// Right after a section's first beat, that section is the one playing.
  @Test func aJumpAfterASectionsFirstBeatMovesFromThatSection() throws {
    let map = try oneBeatFirst()
    var source = MapTempo(map: map, programme: Programme(map: map), startFrame: 0, sampleRate: .standard)
    _ = beats(of: &source, count: 2)
    _ = source.receive(.jump(by: 1))
    #expect(source.nextBeat(after: nil, rhythm: Rhythm()).section?.index == 2)
  }

  /// A key pressed after the map's last beat, before its end, still moves: here back a section.
  @Test func aJumpAfterTheLastBeatIsTaken() {
    var source = MapTempo(map: map, programme: Programme(map: map), startFrame: 0, sampleRate: .standard)
    _ = beats(of: &source, count: 5)
    let moved = source.receive(.jump(by: -1))
    #expect(moved)
    let next = source.nextBeat(after: nil, rhythm: Rhythm())
    #expect(next.section?.index == 0)
    #expect(next.frame == 168_000)
    #expect(!next.isMapEnd)
  }

  /// A looped bar of one beat repeats alone.
  @Test func aLoopedBarOfOneBeatRepeatsAlone() throws {
    let map = try TempoMapParser.parse("a: 3 1/4 120\n", source: "map")
    var source = MapTempo(
      map: map, programme: Programme(map: map, loopBars: 2...2), startFrame: 0, sampleRate: .standard)
    let placed = beats(of: &source, count: 4)
    #expect(placed.map { $0.section?.barInSection } == [2, 2, 2, 2])
    #expect(placed.map(\.frame) == [0, 24_000, 48_000, 72_000])
  }
}
