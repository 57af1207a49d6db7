/// Where the beats come from: the frame, tempo, meter and place in the bar of each next beat.
///
/// One type per source of tempo and phase: `SteadyTempo` (the player's tempo, which keys change
/// and klick's speed trainer ramps), `MapTempo` (a tempo map, klick's trainer and the step
/// trainer, which are maps) and `ClockTempo` (an outside clock's anchor: the JACK transport,
/// Ableton Link, MIDI clock, each read by its follower in the engine). `BeatSequencer` places the
/// rhythm on the beats its source gives: levels, subdivision, the second voice, gaps and the
/// count-in.
public protocol TempoSource: Hashable, Sendable {
  /// The frame of the next beat; nil once the source has ended (a map's end).
  var nextBeatFrame: Int64? { get }

  /// The frame of the source's beat `n` (from 0) while nothing changes.
  func frame(ofBeat n: Int) -> Int64

  /// The next beat as the source places it, after `last`, the click played before it (nil at
  /// first), with `rhythm`; the source moves on to the one after it.
  mutating func nextBeat(after last: Beat?, rhythm: Rhythm) -> SourcedBeat

  /// Plays on at `tempo` in `meter` with `programme` from the next beat, never before
  /// `earliestFrame`; `lastBeatFrame` is the frame of the last beat played (not a count-in's).
  ///
  /// Returns whether the bar the second voice spreads its clicks over was cut short.
  mutating func change(tempo: Tempo, meter: Meter, programme: Programme, earliestFrame: Int64, lastBeatFrame: Int64?)
    -> Bool

  /// Takes `control` from the next beat; returns whether the second voice's bar was cut short.
  mutating func receive(_ control: LiveControl) -> Bool
}

extension TempoSource {
  /// A source without sections (the steady tempo, an outside clock) has nothing to jump between
  /// or loop: nothing changes.
  public mutating func receive(_ control: LiveControl) -> Bool { false }
}

/// A beat as its source places it, before the rhythm is laid on it.
public struct SourcedBeat: Sendable {
  /// The frame it falls on.
  public var frame: Int64
  /// Its meter.
  public var meter: Meter
  /// Its place in the bar, from 1.
  public var beatInBar: Int
  /// The tempo it plays at.
  public var tempo: Tempo
  /// Its exact length in frames.
  public var length: Double
  /// The exact length in frames of the bar it starts, if it is the bar's first beat.
  public var barLength: Double
  /// Its level, before a gap mutes it; nil for the standard one.
  public var level: AccentLevel?
  /// The section of a map it belongs to, if any.
  public var section: Beat.Section?
  /// The volume its section scales it by.
  public var volume: Double = 1
  /// How it is divided.
  public var subdivision: Subdivision
  /// A gap of its section, with the bar of the section it falls in, if any.
  public var sectionGap: (gap: Gap, bar: Int)?
  /// Whether it marks the end of a map, and is never heard.
  public var isMapEnd = false
  /// The bar the source's first beat is numbered.
  public var firstBar = 1
}

/// The source a sequencer plays: one case per kind of source, each dispatching to its type.
public enum BeatSource: TempoSource {
  /// The player's tempo.
  case steady(SteadyTempo)
  /// A tempo map or a trainer.
  case map(MapTempo)
  /// An outside clock.
  case clock(ClockTempo)

  // Each case is dispatched by a switch rather than through `any TempoSource`, whose box would
  // be allocated on the render thread for every beat.

  /// The frame of the next beat; nil once the source has ended.
  public var nextBeatFrame: Int64? {
    switch self {
    case .steady(let source): source.nextBeatFrame
    case .map(let source): source.nextBeatFrame
    case .clock(let source): source.nextBeatFrame
    }
  }

  /// The frame of the source's beat `n` while nothing changes.
  public func frame(ofBeat n: Int) -> Int64 {
    switch self {
    case .steady(let source): source.frame(ofBeat: n)
    case .map(let source): source.frame(ofBeat: n)
    case .clock(let source): source.frame(ofBeat: n)
    }
  }

  /// The next beat as the source places it; the source moves on.
  public mutating func nextBeat(after last: Beat?, rhythm: Rhythm) -> SourcedBeat {
    switch self {
    case .steady(var source):
      defer { self = .steady(source) }
      return source.nextBeat(after: last, rhythm: rhythm)
    case .map(var source):
      defer { self = .map(source) }
      return source.nextBeat(after: last, rhythm: rhythm)
    case .clock(var source):
      defer { self = .clock(source) }
      return source.nextBeat(after: last, rhythm: rhythm)
    }
  }

  /// Takes `control` from the next beat; returns whether the second voice's bar was cut.
  public mutating func receive(_ control: LiveControl) -> Bool {
    guard case .map(var source) = self else { return false }
    defer { self = .map(source) }
    return source.receive(control)
  }

  /// Plays on with a change from the next beat; returns whether the second voice's bar was cut.
  public mutating func change(
    tempo: Tempo, meter: Meter, programme: Programme, earliestFrame: Int64, lastBeatFrame: Int64?
  ) -> Bool {
    switch self {
    case .steady(var source):
      defer { self = .steady(source) }
      return source.change(
        tempo: tempo, meter: meter, programme: programme, earliestFrame: earliestFrame, lastBeatFrame: lastBeatFrame)
    case .map(var source):
      defer { self = .map(source) }
      return source.change(
        tempo: tempo, meter: meter, programme: programme, earliestFrame: earliestFrame, lastBeatFrame: lastBeatFrame)
    case .clock(var source):
      defer { self = .clock(source) }
      return source.change(
        tempo: tempo, meter: meter, programme: programme, earliestFrame: earliestFrame, lastBeatFrame: lastBeatFrame)
    }
  }
}
