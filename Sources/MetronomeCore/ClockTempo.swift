/// An outside clock's beats (the JACK transport, Ableton Link, MIDI clock): the grid of its
/// anchor, numbered from the anchor's bar and beat.
///
/// Its follower in the engine reads the clock and sends a new anchor when the clock's tempo,
/// meter or place changes; until then the beats keep to this grid, whatever the keys ask.
public struct ClockTempo: TempoSource {
  /// The anchor followed.
  public let anchor: TransportAnchor
  private var beats: SteadyTempo
  private let firstBar: Int

  /// Where a clock's beats start: the frame of the anchor's first beat at or after `startFrame`
  /// and after `lastPlayed` (the beat played last before, so that a new anchor never plays a
  /// beat twice), and that beat's bar and place in it.
  public static func start(
    of anchor: TransportAnchor, at startFrame: Int64, after lastPlayed: Beat?, sampleRate: SampleRate
  )
    -> (frame: Int64, bar: Int, beatInBar: Int)
  {
    // The anchor's first beat at or after the start: a play pressed later joins its grid.
    let spacing = BeatGrid(
      anchorFrame: anchor.frame, tempo: anchor.tempo, denominator: anchor.meter.denominator, sampleRate: sampleRate)
    var passed =
      startFrame > anchor.frame ? Int((Double(startFrame - anchor.frame) / spacing.framesPerBeat).rounded(.up)) : 0
    let halfABeat = Int64(spacing.framesPerBeat / 2)
    while let lastPlayed, spacing.frame(ofBeat: passed) <= lastPlayed.frame + halfABeat { passed += 1 }
    let place = anchor.beatInBar - 1 + passed
    return (
      spacing.frame(ofBeat: passed), anchor.bar + place / anchor.meter.numerator, place % anchor.meter.numerator + 1
    )
  }

  /// The beats of `anchor` from its first at or after `startFrame` and after `lastPlayed`, at
  /// `tempo` in `meter` (the anchor's, as the state machine took them up).
  public init(
    anchor: TransportAnchor, startFrame: Int64, lastPlayed: Beat?, tempo: Tempo, meter: Meter, sampleRate: SampleRate
  ) {
    self.anchor = anchor
    let start = Self.start(of: anchor, at: startFrame, after: lastPlayed, sampleRate: sampleRate)
    beats = SteadyTempo(
      startFrame: start.frame, tempo: tempo, meter: meter, firstBeatInBar: start.beatInBar, sampleRate: sampleRate)
    firstBar = start.bar
  }

  /// The frame of the next beat.
  public var nextBeatFrame: Int64? { beats.nextBeatFrame }

  /// The frame of the clock's beat `n` from the first played.
  public func frame(ofBeat n: Int) -> Int64 { beats.frame(ofBeat: n) }

  /// The next beat on the clock's grid, numbered from its anchor.
  public mutating func nextBeat(after last: Beat?, rhythm: Rhythm) -> SourcedBeat {
    var beat = beats.nextBeat(after: last, rhythm: rhythm)
    beat.firstBar = firstBar
    return beat
  }

  /// The clock places the beats: its follower takes a new tempo or meter up from its next
  /// reading, as a new anchor, and until then the beats keep to this grid.
  public mutating func change(
    tempo: Tempo, meter: Meter, programme: Programme, earliestFrame: Int64, lastBeatFrame: Int64?
  ) -> Bool {
    false
  }
}
