import MetronomeCore
import Testing

/// An outside clock's anchor as a source of beats: its grid joined at the first beat to come,
/// numbered from the anchor, and deaf to the keys' tempo.
@Suite(.timeLimit(.minutes(1)))
struct ClockTempoTests {
  /// 4/4 at 120 (24 000 frames a beat) from frame 1 000, where bar 3's beat 2 falls.
  private let anchor = TransportAnchor(
    id: 1, source: .jack, frame: 1_000, bar: 3, beatInBar: 2, tempo: .standard, meter: .fourFour)

  @Test func aLaterStartJoinsTheAnchorsGridAtItsNextBeat() {
    let start = ClockTempo.start(of: anchor, at: 30_000, after: nil, sampleRate: .standard)
    #expect(start.frame == 49_000)
    #expect(start.bar == 3)
    #expect(start.beatInBar == 4)
    let later = ClockTempo.start(of: anchor, at: 50_000, after: nil, sampleRate: .standard)
    #expect([later.frame, Int64(later.bar), Int64(later.beatInBar)] == [73_000, 4, 1])
    // Counted from the anchor: 47 000 frames after it is two beats and a bit, not three.
    #expect(ClockTempo.start(of: anchor, at: 48_000, after: nil, sampleRate: .standard).frame == 49_000)
    // Starting on the anchor's own frame plays its beat.
    #expect(ClockTempo.start(of: anchor, at: 1_000, after: nil, sampleRate: .standard).frame == 1_000)
  }

  /// Half a beat is the edge: a beat of the grid exactly half a beat after the one played last
  /// counts as played; a third of a beat after it would not.
  @Test func aBeatHalfABeatAfterTheLastPlayedCountsAsPlayed() {
    let played = { (frame: Int64) in
      Beat(count: 0, bar: 3, beatInBar: 2, meter: .fourFour, tempo: .standard, frame: frame, sampleRate: .standard)
    }
    #expect(ClockTempo.start(of: anchor, at: 0, after: played(13_000), sampleRate: .standard).frame == 49_000)
    #expect(ClockTempo.start(of: anchor, at: 0, after: played(12_999), sampleRate: .standard).frame == 25_000)
  }

  /// A new anchor never plays a beat again that was played within half a beat of its own.
  @Test func aBeatAlreadyPlayedIsNotPlayedAgain() {
    let played = Beat(
      count: 0, bar: 3, beatInBar: 2, meter: .fourFour, tempo: .standard, frame: 990, sampleRate: .standard)
    let start = ClockTempo.start(of: anchor, at: 0, after: played, sampleRate: .standard)
    #expect(start.frame == 25_000)
    #expect(start.beatInBar == 3)
  }

  /// As a sequencer's source, the clock moves on with each beat it gives.
  @Test func asASourceTheClockMovesOnBeatByBeat() {
    var source = BeatSource.clock(
      ClockTempo(
        anchor: anchor, startFrame: 0, lastPlayed: nil, tempo: .standard, meter: .fourFour, sampleRate: .standard))
    let first = source.nextBeat(after: nil, rhythm: Rhythm())
    #expect([first.frame, Int64(first.beatInBar)] == [1_000, 2])
    #expect(source.nextBeatFrame == 25_000)
    #expect(source.nextBeat(after: nil, rhythm: Rhythm()).frame == 25_000)
    #expect(source.nextBeatFrame == 49_000)
  }

  @Test func itsBeatsAreNumberedFromTheAnchorAndKeepToItsGrid() throws {
    var clock = ClockTempo(
      anchor: anchor, startFrame: 0, lastPlayed: nil, tempo: .standard, meter: .fourFour, sampleRate: .standard)
    let first = clock.nextBeat(after: nil, rhythm: Rhythm())
    #expect([first.frame, Int64(first.firstBar), Int64(first.beatInBar)] == [1_000, 3, 2])
    #expect(clock.nextBeatFrame == 25_000)
    let cut = clock.change(
      tempo: try Tempo(bpm: 200), meter: try Meter(3, 4), programme: Programme(), earliestFrame: 2_000,
      lastBeatFrame: 1_000)
    #expect(!cut)
    #expect(clock.nextBeatFrame == 25_000)
  }
}
