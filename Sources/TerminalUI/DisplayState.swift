import MetronomeCore

/// Everything the interactive display shows, each field as the view model's outputs give it.
public struct DisplayState: Equatable, Sendable {
  /// "120 BPM".
  public var tempoText: String
  /// "4/4".
  public var signature: String
  /// Beats per bar: one cell each.
  public var beatsPerBar: Int
  /// The level of each beat, shown in its cell; one that does not fit `beatsPerBar` shows the
  /// standard levels.
  public var pattern: [AccentLevel]
  /// Whether it is playing.
  public var isPlaying: Bool
  /// How each beat is divided.
  public var subdivision: Subdivision
  /// Whether every beat is silenced.
  public var isMuted: Bool
  /// The second voice's clicks per bar while it sounds.
  public var polyrhythm: Int?
  /// The second voice's click heard last (from 0), while playing.
  public var heardPolyrhythmClick: Int?
  /// The beat heard last, while playing.
  public var heard: HeardBeat?
  /// The audio output's name ("default", or "silent").
  public var output: String
  /// The output latency in milliseconds, once known.
  public var latencyMilliseconds: Double?
  /// Underruns recovered from so far.
  public var underruns: Int
  /// Beats skipped so far, because glitches lost the frames they fell in.
  public var skippedBeats: Int
  /// The song of a setlist playing (or chosen): "Ballad (2/3)"; nil without a setlist.
  public var song: String?
  /// Where a tempo map is: "verse (2/5) · bar 3 of 12"; nil without a map.
  public var section: String?
  /// The section alone, without the bar: "verse (2/5)"; nil without a map.
  public var sectionTitle: String?
  /// What comes next in the map or the setlist: "next: chorus 140 BPM 4/4 in 2 bars".
  public var upcoming: String?
  /// Whether the beat heard last counts the music in.
  public var isCountIn = false
  /// Whether the section playing repeats.
  public var isLooping = false
  /// What the beats are synced with: the outside clock they follow ("Link · 2 peers") and where
  /// MIDI clock goes out ("MIDI clock on 129:0"); nil for neither.
  public var sync: String?
  /// What the listening shows: the last hit on an early-late meter and the statistics; empty
  /// when not listening.
  public var listening: [String] = []
  /// Whether the whole screen is lit for a beat (the big display's flash).
  public var isFlashing = false
  /// What the keys do, as the last lines say it: the bindings, unless the keys are hits.
  public var keyHelp = KeyBindings.helpItems

  /// The position of the beat heard last.
  public struct HeardBeat: Equatable, Sendable {
    /// Its bar, from 1.
    public var bar: Int
    /// Its beat in the bar, from 1.
    public var beat: Int
    /// How strongly it sounded.
    public var level: AccentLevel
    /// The beat's click heard last: 0 for its own, K for its subdivision's click K.
    public var subdivision: Int
    /// Whether a gap mutes its bar: it is counted, dimmed.
    public var isGapMuted: Bool

    /// A heard beat as given.
    public init(bar: Int, beat: Int, level: AccentLevel, subdivision: Int = 0, isGapMuted: Bool = false) {
      self.bar = bar
      self.beat = beat
      self.level = level
      self.subdivision = subdivision
      self.isGapMuted = isGapMuted
    }
  }

  /// A state as given.
  public init(
    tempoText: String = "", signature: String = "", beatsPerBar: Int = 1, pattern: [AccentLevel] = [],
    isPlaying: Bool = false, subdivision: Subdivision = .none, isMuted: Bool = false, polyrhythm: Int? = nil,
    heard: HeardBeat? = nil, output: String, latencyMilliseconds: Double? = nil, underruns: Int = 0,
    skippedBeats: Int = 0
  ) {
    self.tempoText = tempoText
    self.signature = signature
    self.beatsPerBar = beatsPerBar
    self.pattern = pattern
    self.isPlaying = isPlaying
    self.subdivision = subdivision
    self.isMuted = isMuted
    self.polyrhythm = polyrhythm
    self.heard = heard
    self.output = output
    self.latencyMilliseconds = latencyMilliseconds
    self.underruns = underruns
    self.skippedBeats = skippedBeats
  }
}
