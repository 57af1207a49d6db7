import MetronomeCore
import Testing

/// A tempo map as the sequencer plays it: section after section, the multiplier changed in mid-
/// run, a jump to another section, a section or bars looped; each beat on the frame the map
/// gives it, told with its section and its bar in it.
@Suite(.timeLimit(.minutes(1)))
struct MapPlaybackTests {
  /// Intro: 2 bars of 4/4 at 120 (24 000 frames a beat); verse: 2 bars of 3/4 at 60 (48 000).
  private let map = TempoMap(sections: [
    TempoMap.Section(label: "intro", bars: 2, meter: .fourFour, tempo: .steady(120)),
    TempoMap.Section(
      label: "verse", bars: 2, meter: Meter(clampingNumerator: 3, denominator: 4, cap: .denominator), tempo: .steady(60)
    ),
  ])

  /// A beat as the tests compare them: frame, section, bar in section and beat in bar.
  private struct Placed: Equatable, CustomStringConvertible {
    let frame: Int64
    let section: Int?
    let bar: Int
    let beat: Int

    init(_ frame: Int64, _ section: Int?, _ bar: Int, _ beat: Int) {
      (self.frame, self.section, self.bar, self.beat) = (frame, section, bar, beat)
    }

    init(_ beat: Beat) {
      self.init(beat.frame, beat.section?.index, beat.section?.barInSection ?? 0, beat.beatInBar)
    }

    var description: String { "\(frame) s\(section.map(String.init) ?? "-") \(bar).\(beat)" }
  }

  private func sequencer(_ programme: Programme) -> BeatSequencer {
    BeatSequencer(
      startFrame: 0, tempo: .standard, meter: .fourFour, rhythm: Rhythm(), programme: programme,
      sampleRate: .standard)
  }

  /// The map played through: its beats on their frames, each section's bars counted from 1,
  /// then a silent beat that marks its end, and nothing after.
  @Test func aMapPlaysItsSectionsThrough() {
    var beats = sequencer(Programme(map: map))
    var played: [Beat] = []
    while beats.nextFrame != nil { played.append(beats.advance()) }
    let intro = (0..<8).map { Placed(Int64($0) * 24_000, 0, $0 / 4 + 1, $0 % 4 + 1) }
    let verse = (0..<6).map { Placed(192_000 + Int64($0) * 48_000, 1, $0 / 3 + 1, $0 % 3 + 1) }
    #expect(played.dropLast().map(Placed.init) == intro + verse)
    #expect(played.dropLast().map(\.bar) == [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 4])
    let end = played.last
    #expect(end?.isMapEnd == true && end?.frame == 480_000 && end?.level == .silent)
    #expect(played.dropLast().allSatisfy { !$0.isMapEnd })
  }

  /// A multiplier changed in mid-run scales the map from the next beat, which follows the last
  /// one by the map's interval at the new multiplier; changed before the first beat, it moves
  /// nothing already placed.
  @Test func aMultiplierChangedInMidRunScalesFromTheNextBeat() {
    var beats = sequencer(Programme(map: map))
    var frames = (0..<3).map { _ in beats.advance().frame }
    beats.change(
      tempo: .standard, meter: .fourFour, programme: Programme(map: map, multiplier: 2), earliestFrame: 48_001)
    frames += (0..<3).map { _ in beats.advance().frame }
    #expect(frames == [0, 24_000, 48_000, 60_000, 72_000, 84_000])
    var early = sequencer(Programme(map: map))
    early.change(tempo: .standard, meter: .fourFour, programme: Programme(map: map, multiplier: 2), earliestFrame: 0)
    #expect((0..<3).map { _ in early.advance().frame } == [0, 12_000, 24_000])
    // After the first beat, the second follows it at the new interval too.
    var second = sequencer(Programme(map: map))
    _ = second.advance()
    second.change(tempo: .standard, meter: .fourFour, programme: Programme(map: map, multiplier: 2), earliestFrame: 1)
    #expect(second.advance().frame == 12_000)
    // Never before the first frame not yet rendered.
    var late = sequencer(Programme(map: map))
    _ = late.advance()
    late.change(
      tempo: .standard, meter: .fourFour, programme: Programme(map: map, multiplier: 2), earliestFrame: 30_000)
    #expect(late.advance().frame == 30_000)
  }

  /// A jump moves to another section's first bar on the frame the next beat would have had; 0
  /// starts the section playing again; past the last section, it stays on the last.
  @Test func aJumpMovesToASectionsFirstBarKeepingThePhase() {
    for (offset, section) in [(1, 1), (0, 0), (5, 1), (-3, 0)] {
      var beats = sequencer(Programme(map: map))
      _ = (0..<2).map { _ in beats.advance() }
      beats.receive(.jump(by: offset))
      let next = beats.advance()
      #expect(Placed(next) == Placed(48_000, section, 1, 1), "jump by \(offset)")
      // A change of the settings after it is no second jump.
      beats.change(tempo: .standard, meter: .fourFour, programme: Programme(map: map), earliestFrame: next.frame + 1)
      #expect(Placed(beats.advance()).beat == 2, "jump by \(offset)")
    }
  }

  /// A section looped plays again from its first beat after its last, on the grid, for as long
  /// as it loops; bars looped, the same over those bars.
  @Test func aLoopedSectionOrBarsPlayAgainOnTheGrid() {
    var programme = Programme(map: map)
    programme.loopsSection = true
    var section = sequencer(programme)
    let looped = (0..<12).map { _ in Placed(section.advance()) }
    #expect(looped == (0..<12).map { Placed(Int64($0) * 24_000, 0, $0 % 8 / 4 + 1, $0 % 4 + 1) })
    var bars = sequencer(Programme(map: map, loopBars: 2...3))
    let barsLooped = (0..<14).map { _ in Placed(bars.advance()) }
    // Bar 2 (the intro's second) and bar 3 (the verse's first), again and again.
    let lap = (0..<4).map { Placed(0, 0, 2, $0 + 1) } + (0..<3).map { Placed(0, 1, 1, $0 + 1) }
    #expect(barsLooped.map { Placed(0, $0.section, $0.bar, $0.beat) } == lap + lap)
    let gaps = zip(barsLooped, barsLooped.dropFirst()).map { $1.frame - $0.frame }
    #expect(
      gaps == [24_000, 24_000, 24_000, 24_000, 48_000, 48_000, 48_000, 24_000, 24_000, 24_000, 24_000, 48_000, 48_000])
    // A change of the settings alone does not release it: the section starts again.
    section.change(tempo: .standard, meter: .fourFour, programme: Programme(map: map), earliestFrame: 288_001)
    #expect((0..<5).map { _ in Placed(section.advance()) }.map { [$0.section, $0.bar, $0.beat] }.last == [0, 1, 1])
    // Released, the loop plays on into what follows it.
    section.receive(.loop(false))
    #expect((0..<8).map { _ in Placed(section.advance()).section } == [0, 0, 0, 0, 0, 0, 0, 1])
  }

  /// Sections held until told (an earned trainer): each plays again at its end unless told where
  /// to go, on the grid; told, it goes there at its end and not before, the same again (0), back
  /// (not before the first), on (a map that loops starts again past its last); a move told is
  /// taken once; and a loop the player holds keeps the section while the move waits.
  @Test func heldSectionsPlayAgainUntilToldWhereToGoAtTheirEnd() {
    var programme = Programme(map: map)
    programme.holdsSections = true
    let sections = { (beats: inout BeatSequencer, count: Int) in (0..<count).map { _ in Placed(beats.advance()) } }
    var held = sequencer(programme)
    let again = sections(&held, 12)
    #expect(again == (0..<12).map { Placed(Int64($0) * 24_000, 0, $0 % 8 / 4 + 1, $0 % 4 + 1) })
    // Told in mid-block: the block plays out, then the next section, on the grid.
    held.receive(.moveAtSectionEnd(by: 1))
    let on = sections(&held, 5)
    #expect(on.map(\.section) == [0, 0, 0, 0, 1])
    #expect(on.last == Placed(16 * 24_000, 1, 1, 1))
    // The verse again, unless told: the move was taken once.
    #expect(sections(&held, 12).map(\.section) == Array(repeating: 1, count: 12))
    held.receive(.moveAtSectionEnd(by: -5))
    let back = sections(&held, 6)
    #expect(back.map(\.section) == [1, 1, 1, 1, 1, 0] && back[5].frame - back[4].frame == 48_000)
    #expect(back[5] == Placed(16 * 24_000 + 18 * 48_000, 0, 1, 1))
    // On past the last section of a map that loops: its first again; of one that does not: its last.
    for (loops, section) in [(true, 0), (false, 1)] {
      var looping = Programme(map: TempoMap(sections: map.sections, loops: loops))
      looping.holdsSections = true
      var beats = sequencer(looping)
      beats.receive(.moveAtSectionEnd(by: 1))
      #expect(sections(&beats, 9).last?.section == 1)
      beats.receive(.moveAtSectionEnd(by: 1))
      #expect(sections(&beats, 6).last?.section == section, "loops: \(loops)")
    }
    // The player's loop keeps the section; the move told waits for it to be let go.
    var looped = programme
    looped.loopsSection = true
    var kept = sequencer(looped)
    kept.receive(.moveAtSectionEnd(by: 1))
    #expect(sections(&kept, 9).last?.section == 0)
    kept.receive(.loop(false))
    #expect(sections(&kept, 8).last?.section == 1)
    // A move is taken once, where the map has more sections to move on to.
    let outro = TempoMap.Section(label: "outro", bars: 1, meter: .fourFour, tempo: .steady(120))
    let three = TempoMap(sections: map.sections + [outro])
    var once = Programme(map: three)
    once.holdsSections = true
    var onward = sequencer(once)
    onward.receive(.moveAtSectionEnd(by: 1))
    #expect(sections(&onward, 9).last?.section == 1)
    #expect(sections(&onward, 6).map(\.section) == Array(repeating: 1, count: 6))
    // A multiplier changed as a held section ends scales it from its first beat played again,
    // which follows the last by the new interval.
    var rescaled = sequencer(programme)
    let lastOfFirst = sections(&rescaled, 8).last?.frame ?? 0
    var faster = Programme(map: map, multiplier: 2)
    faster.holdsSections = true
    rescaled.change(tempo: .standard, meter: .fourFour, programme: faster, earliestFrame: lastOfFirst + 1)
    let rescaledFrames: [Int64] = sections(&rescaled, 2).map(\.frame)
    #expect(rescaledFrames == [180_000, 192_000])
    // Bars looped and then let go: a held section plays again from its own first bar.
    var bars = Programme(map: map, loopBars: 2...2)
    bars.holdsSections = true
    var letGo = sequencer(bars)
    _ = sections(&letGo, 2)
    letGo.receive(.loop(false))
    #expect(sections(&letGo, 7).map(\.bar) == [2, 2, 1, 1, 1, 1, 2])
    // Without holding, a move told changes nothing: the map goes on as written.
    var free = sequencer(Programme(map: map))
    free.receive(.moveAtSectionEnd(by: 0))
    #expect(sections(&free, 9).last?.section == 1)
  }

  /// A map started at a later bar starts there, counted from that bar; its tempo and section are
  /// that bar's.
  @Test func aMapStartedAtABarStartsThere() {
    let verse = MapTempo(
      map: map, programme: Programme(map: map, loopBars: 3...4), startFrame: 0, sampleRate: .standard)
    #expect(verse.startTempo.bpm == 60 && verse.startSection.label == "verse")
    let intro = MapTempo(map: map, programme: Programme(map: map), startFrame: 0, sampleRate: .standard)
    #expect(intro.startTempo.bpm == 120 && intro.startSection.label == "intro")
  }

  /// A jump cuts the second voice's bar short: what is left of it is not played, and the voice
  /// comes back with the bar the jump starts.
  @Test func aJumpCutsTheSecondVoicesBarShort() {
    var beats = BeatSequencer(
      startFrame: 0, tempo: .standard, meter: .fourFour, rhythm: Rhythm(polyrhythm: 3), programme: Programme(map: map),
      sampleRate: .standard)
    let before = (0..<3).map { _ in beats.advance() }
    #expect(before.map(\.frame) == [0, 0, 24_000])
    beats.receive(.jump(by: 1))
    // The intro's second click of the voice, due at 32 000, is not played.
    let after = (0..<3).map { _ in beats.advance() }
    #expect(after.map(\.frame) == [48_000, 48_000, 96_000])
    #expect(after.map(\.isPolyrhythm) == [false, true, false])
  }
}
