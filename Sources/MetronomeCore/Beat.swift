/// One click of the metronome: where it falls in the bar, and the exact frame it sounds on.
///
/// A subdivision's click is one too: it belongs to its beat (the same count, bar and beat in
/// bar) and says which of the beat's clicks it is.
public struct Beat: Hashable, Sendable, CustomStringConvertible {
  /// How many beats came before this one since play was pressed.
  public let count: Int
  /// The bar, counted from 1.
  public let bar: Int
  /// The beat within the bar, counted from 1.
  public let beatInBar: Int
  /// The meter this beat was played in.
  public let meter: Meter
  /// The tempo this beat was played at.
  public let tempo: Tempo
  /// The audio frame the click starts on.
  public let frame: Int64
  /// The rate `frame` counts at.
  public let sampleRate: SampleRate
  /// How strongly it sounds.
  public let level: AccentLevel
  /// Which of its beat's clicks it is: 0 for the beat itself, 1 to n - 1 for a subdivision's.
  public let subdivision: Int
  /// How many clicks its beat is divided into, n: 1 for an undivided beat (and the second voice).
  public let clicks: Int
  /// The voice it belongs to: the beats (with their subdivisions), or the second voice.
  public let voice: Voice
  /// Whether it counts the music in: its bars are numbered up to 0 and its count is negative.
  public let isCountIn: Bool
  /// Where it falls in a tempo map; nil without one.
  public let section: Section?
  /// How loud it plays, 1 as the kit is (a tempo map's section sets it).
  public let volume: Double
  /// Whether a gap mutes its bar: counted and shown, silent, to test the player's inner clock.
  public let isGapMuted: Bool
  /// Whether it only marks where a tempo map ends: the run (or the song) ends on its frame, and it
  /// is not heard.
  public let isMapEnd: Bool
  /// The song of a setlist it belongs to, counted from 0; nil without a setlist.
  ///
  /// The sequencer plays rhythm only: what plays it says which song.
  public var song: Int?
  /// The outside clock its tempo and phase came from (`jack`); nil for the metronome's own.
  ///
  /// Set, as the song is, by what plays the sequencer.
  public var syncSource: ClockSource?

  /// A beat's place in a tempo map.
  public struct Section: Hashable, Sendable {
    /// The section, counted from 0.
    public let index: Int
    /// The bar within the section, counted from 1.
    public let barInSection: Int

    /// A place as given.
    public init(index: Int, barInSection: Int) {
      self.index = index
      self.barInSection = barInSection
    }
  }

  /// The voices a click may belong to.
  public enum Voice: Hashable, Sendable {
    /// The beats and their subdivisions.
    case beats
    /// The second voice, `click` (from 0) of the `of` it plays across each bar.
    case polyrhythm(click: Int, of: Int)
  }

  /// A beat; `count`, `bar` and `beatInBar` as described on the properties; `level` unless given
  /// is the standard one (beat one strong, the others normal).
  public init(
    count: Int, bar: Int, beatInBar: Int, meter: Meter, tempo: Tempo, frame: Int64, sampleRate: SampleRate,
    level: AccentLevel? = nil, subdivision: Int = 0, clicks: Int = 1, voice: Voice = .beats, isCountIn: Bool = false,
    section: Section? = nil, volume: Double = 1, isGapMuted: Bool = false, isMapEnd: Bool = false, song: Int? = nil,
    syncSource: ClockSource? = nil
  ) {
    self.count = count
    self.bar = bar
    self.beatInBar = beatInBar
    self.meter = meter
    self.tempo = tempo
    self.frame = frame
    self.sampleRate = sampleRate
    self.level = level ?? .standard(ofBeat: beatInBar)
    self.subdivision = subdivision
    self.clicks = clicks
    self.voice = voice
    self.isCountIn = isCountIn
    self.section = section
    self.volume = volume
    self.isGapMuted = isGapMuted
    self.isMapEnd = isMapEnd
    self.song = song
    self.syncSource = syncSource
  }

  /// A click of another kind that goes with this beat (same count, bar and beat in bar), at
  /// `frame`: a subdivision's click, or the second voice's; as loud as the beat unless `volume`
  /// says otherwise.
  public func click(
    at frame: Int64, level: AccentLevel, subdivision: Int = 0, voice: Voice = .beats, volume: Double? = nil
  ) -> Beat {
    Beat(
      count: count, bar: bar, beatInBar: beatInBar, meter: meter, tempo: tempo, frame: frame, sampleRate: sampleRate,
      level: level, subdivision: subdivision, clicks: voice == .beats ? clicks : 1, voice: voice, isCountIn: isCountIn,
      section: section,
      volume: volume ?? self.volume,
      isGapMuted: isGapMuted, isMapEnd: isMapEnd, song: song, syncSource: syncSource)
  }

  /// Whether it is the second voice's click.
  public var isPolyrhythm: Bool { voice != .beats }

  /// Whether it is the click of a subdivision rather than of the beat itself.
  public var isSubdivision: Bool { subdivision > 0 }

  /// Whether it is one of the bar's own beats: neither a subdivision's click nor the second
  /// voice's.
  public var isBarBeat: Bool { !isPolyrhythm && !isSubdivision }

  /// Whether it is accented (strong).
  public var isAccent: Bool { level == .strong }

  /// Raytronome's accent flag: `.first` for beat one, `.regular` for the others.
  public var kind: BeatKind { beatInBar == 1 ? .first : .regular }

  /// Raytronome's pendulum side, alternating with every beat played.
  public var parity: BeatParity { count.isMultiple(of: 2) ? .even : .odd }

  /// Seconds from frame 0 to this beat.
  public var seconds: Double { Double(frame) / Double(sampleRate.hz) }

  /// Which click of its beat it is, as text lines write it after the beat: `sub K` for a
  /// subdivision's click K, `poly J/M` for the second voice's click J of M; empty for the beat.
  public var clickLabel: String {
    switch voice {
    case .beats: isSubdivision ? " sub \(subdivision)" : ""
    case .polyrhythm(let click, let clicks): " poly \(click + 1)/\(clicks)"
    }
  }

  /// How it reads in messages and test failures.
  public var description: String { "bar \(bar) beat \(beatInBar)\(clickLabel) at frame \(frame)" }
}

/// Whether a beat is the first of its bar.
public enum BeatKind: Hashable, Sendable {
  case first
  case regular
}

/// Alternates with every beat, like a pendulum swinging left and right.
public enum BeatParity: Hashable, Sendable {
  case even
  case odd
}
