import PracticeListening

/// One live run as the journal keeps it: when and how long, what played, how it ended, and, for a
/// run that listened, every hit scored.
public struct Take: Equatable, Sendable {
  /// The tempos a run played, in BPM.
  public struct Tempos: Equatable, Sendable {
    /// The first beat's.
    public var first: Double
    /// The last beat's: where a trainer got to.
    public var last: Double
    /// The slowest.
    public var lowest: Double
    /// The fastest.
    public var highest: Double

    /// Tempos as given.
    public init(first: Double, last: Double, lowest: Double, highest: Double) {
      self.first = first
      self.last = last
      self.lowest = lowest
      self.highest = highest
    }
  }

  /// When it started.
  public var started: WallTime
  /// How long it played, in seconds.
  public var seconds: Double
  /// The exercise or song it was tagged with (`--tag`), if any.
  public var tag: String?
  /// The meters heard, each once, in the order first heard: "4/4".
  public var meters: [String]
  /// The tempos heard; nil when no beat was heard.
  public var tempos: Tempos?
  /// The beats heard (not subdivisions, the second voice or the count-in).
  public var beats: Int
  /// What played beyond one steady tempo, in a few words: "map song.map", "step 5/4 to 120".
  public var programme: String
  /// How it ended: "quit", "played to its end", "interrupted (SIGTERM)", "failed: …".
  public var ending: String
  /// The exit status it ended with.
  public var status: Int32
  /// The tolerance hits were judged within, in ms either way; nil for a run that did not listen.
  public var tolerance: Double?
  /// Every hit scored, in the order decided.
  public var hits: [TakeHit]

  /// A take as given; one that did not listen has no tolerance and no hits.
  public init(
    started: WallTime, seconds: Double, tag: String?, meters: [String], tempos: Tempos?, beats: Int,
    programme: String, ending: String, status: Int32, tolerance: Double?, hits: [TakeHit]
  ) {
    self.started = started
    self.seconds = seconds
    self.tag = tag
    self.meters = meters
    self.tempos = tempos
    self.beats = beats
    self.programme = programme
    self.ending = ending
    self.status = status
    self.tolerance = tolerance
    self.hits = hits
  }
}

/// A hit as the journal keeps it: the click it was played for and how far from it.
public struct TakeHit: Equatable, Sendable {
  /// The click's time from the run's start, in seconds.
  public var seconds: Double
  /// The click's bar, beat and click in the beat (0 for the beat itself).
  public var bar: Int
  /// The click's beat in its bar.
  public var beat: Int
  /// The click's place in its beat: 0 for the beat, from 1 for a subdivision's clicks.
  public var subdivision: Int
  /// The click's tempo, in BPM.
  public var tempo: Double
  /// From the click to the hit, in ms: negative when early.
  public var offset: Double
  /// The MIDI note, `Hit.keyNote` for a typed key, `Hit.audioNote` for an attack heard.
  public var note: Int
  /// How hard, 1 to 127.
  public var velocity: Int

  /// A hit as given.
  public init(
    seconds: Double, bar: Int, beat: Int, subdivision: Int, tempo: Double, offset: Double, note: Int, velocity: Int
  ) {
    self.seconds = seconds
    self.bar = bar
    self.beat = beat
    self.subdivision = subdivision
    self.tempo = tempo
    self.offset = offset
    self.note = note
    self.velocity = velocity
  }

  /// `scored` as the journal keeps it.
  public init(_ scored: ScoredHit) {
    let click = scored.click
    self.init(
      seconds: click.seconds, bar: click.bar, beat: click.beatInBar, subdivision: click.subdivision,
      tempo: click.tempo.bpm, offset: scored.offsetMilliseconds, note: scored.hit.note,
      velocity: scored.hit.velocity)
  }
}
