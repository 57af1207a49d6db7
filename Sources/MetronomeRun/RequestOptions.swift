import MetronomeCore

/// The command line's values as given, before they are checked: the executable's options fill
/// them in, and a request is built from them once.
///
/// Each group mirrors one group of options, so that the executable declares and documents them
/// and the library alone decides what they mean together.
public enum RequestOptions {
  /// `[METER] [TEMPO] [PATTERN]` and the rhythm: `--pattern`, `--group`, `--subdivide`, `--swing`,
  /// `--poly`, `--max-numerator`.
  public struct Music: Sendable, Equatable {
    /// The meter, tempo and pattern words, in the order given.
    public var words: [String] = []
    /// `--pattern`: a level per beat.
    public var pattern: String?
    /// `--group`: groups such as 2+2+3, or `compound`.
    public var group: String?
    /// `--subdivide`: clicks per beat.
    public var subdivide: Int?
    /// `--swing`: percent of a pair.
    public var swing: Double?
    /// `--poly`: the second voice's clicks per bar.
    public var poly: Int?
    /// `--max-numerator`: beats a bar may hold at least.
    public var maxNumerator: Int?

    /// No words and no rhythm: 4/4 at 120.
    public init() {}
  }

  /// `--beats`, `--bars` or `--duration`.
  public struct Length: Sendable, Equatable {
    /// `--beats`.
    public var beats: Int?
    /// `--bars`.
    public var bars: Int?
    /// `--duration`, in seconds.
    public var duration: Double?

    /// No length: it plays until stopped.
    public init() {}
  }

  /// `--sound`, `--volume`, `--rate` and `--samples`.
  public struct Sound: Sendable, Equatable {
    /// `--sound`.
    public var sound: ClickSound = .pulse
    /// `--volume`, 0 to 1.
    public var volume: Double = 1
    /// `--rate`, in Hz.
    public var rate: Int = SampleRate.standard.hz
    /// `--samples`: comma-separated files, one per voice.
    public var samples: String?
    /// `--voice`: the beats counted aloud by flite.
    public var voice = false
    /// `--voice-dir`: the count said by one's own recordings in this folder.
    public var voiceFolder: String?
    /// `--with-click`: the clicks kept under the spoken count.
    public var withClick = false

    /// The built-in pulse at full volume, at 48 kHz.
    public init() {}
  }

  /// The practice programme: `--map`, `--setlist`, `--start-label`, `--count-in`, `--multiplier`,
  /// `--gap`, `--seed`, `--step`, `--to`, `--loop` and `--loop-bars`.
  public struct Programme: Sendable, Equatable {
    /// `--map`: a file, or `-` for standard input.
    public var map: String?
    /// `--setlist`: a file, or `-` for standard input.
    public var setlist: String?
    /// `--start-label`.
    public var startLabel: String?
    /// `--count-in`: bars, or beats with a `b`.
    public var countIn: String?
    /// `--multiplier`.
    public var multiplier: Double?
    /// `--gap`: PLAY:MUTE or PERCENT%.
    public var gap: String?
    /// `--seed` for random gaps.
    public var seed: UInt64?
    /// `--step`: STEP/BARS or STEP/SECONDSs.
    public var step: String?
    /// `--to`: the step trainer's target.
    public var to: Double?
    /// `--loop`: the step trainer starts again.
    public var loop = false
    /// `--loop-bars`: FIRST-LAST.
    public var loopBars: String?

    /// No programme: one steady tempo.
    public init() {}
  }

  /// Where a live run plays and how it shows its beats.
  public struct Output: Sendable, Equatable {
    /// `--device`: the ALSA playback device.
    public var device = "default"
    /// `--period`, in frames.
    public var period = 256
    /// `--buffer`, in frames.
    public var buffer: Int?
    /// `--silent`: paced by the system clock, no audio.
    public var silent = false
    /// `--virtual`: virtual time, printed at once.
    public var virtual = false
    /// `--headless`: lines instead of the display.
    public var headless = false
    /// `--big`: the display for the room.
    public var big = false
    /// `--plain`: the display for screen readers.
    public var plain = false
    /// `--events`: how headless lines are written.
    public var events: BeatEvents = .text
    /// `--keys`: a key script, or `-` for standard input.
    public var keys: String?
    /// `--jack`: a JACK client of its own.
    public var jack = false
    /// `--client-name`.
    public var clientName = "metronome"
    /// `--connect`: JACK ports, comma-separated, or `none`.
    public var connect: String?

    /// ALSA's `default` device, with the display in a terminal.
    public init() {}
  }

  /// What the beats follow or drive: the JACK transport, MIDI clock, Ableton Link.
  public struct Sync: Sendable, Equatable {
    /// `--follow-transport`.
    public var followTransport = false
    /// `--timebase-master`.
    public var timebaseMaster = false
    /// `--follow-midi-clock`.
    public var followMIDIClock = false
    /// `--midi-clock-from`: JACK ports.
    public var midiClockFrom: String?
    /// `--link`: Ableton Link.
    public var link = false
    /// `--midi-clock`: send MIDI clock.
    public var midiClock = false
    /// `--midi-notes`: send a note for each click.
    public var midiNotes = false
    /// `--midi-note-map`: the notes, as `MIDINoteMap(parsing:)` reads them.
    public var midiNoteMap: String?
    /// `--midi-connect`: where the clock and the notes go.
    public var midiConnect: String?

    /// The metronome's own clock, sending nothing.
    public init() {}
  }

  /// Remote control over the network: klick's OSC.
  public struct Remote: Sendable, Equatable {
    /// `--osc`: the UDP port to listen on.
    public var osc: Int?
    /// `--osc-return`: where `/klick/ready` goes at start (a liblo URL or a port).
    public var oscReturn: String?
    /// `--osc-host`: the address to listen on.
    public var oscHost: String?
    /// Whether the run starts stopped, waiting for `/klick/metro/start`, as klick does with OSC.
    public var startsStopped = false

    /// No remote control.
    public init() {}
  }

  /// Listening to the player: `--listen`, `--listen-from`, `--listen-device`, `--listen-notes`, `--listen-velocity`,
  /// `--onset-level`, `--onset-rise`, `--input-offset`, `--tolerance` and `--report`.
  public struct Listen: Sendable, Equatable {
    /// `--listen`: score the player's MIDI notes and audio attacks against the click.
    public var listen = false
    /// `--listen-from`: ports to connect to `hits` (MIDI) or `mic` (audio, with JACK).
    public var from: String?
    /// `--listen-device`: the ALSA capture device audio is heard through, without JACK.
    public var device: String?
    /// `--listen-notes`: the notes listened to.
    public var notes: String?
    /// `--listen-velocity`: the softest note that counts.
    public var velocity = 1
    /// `--input-offset`: milliseconds taken off every hit.
    public var inputOffset: Double?
    /// `--tolerance`: milliseconds either way that count as on time.
    public var tolerance: Double?
    /// `--report`: the file the report is written to.
    public var report: String?
    /// `--onset-level`: the quietest attack on an audio input that counts, in dBFS.
    public var onsetLevel: Double?
    /// `--onset-rise`: how far an attack must rise above the sound before it, in dB.
    public var onsetRise: Double?

    /// Not listening.
    public init() {}
  }

  /// `metronome calibrate`'s: `[TEMPO]`, `--loopback`, the output (`--device`, `--jack`,
  /// `--client-name`, `--connect`, `--headless`, `--events`), `--rate` and where the hits or the
  /// signal come back (`--listen-from`, `--listen-device`, `--listen-notes`, `--listen-velocity`).
  public struct Calibrate: Sendable, Equatable {
    /// The tempo word to hit along with.
    public var tempo = "100"
    /// `--loopback`: measure the round trip instead of the player.
    public var loopback = false
    /// `--rate`, in Hz.
    public var rate: Int = SampleRate.standard.hz
    /// Where it plays and how it shows the hits.
    public var output = Output()
    /// Where the hits (or the loopback's signal) come from; `listen` itself is not read.
    public var listen = Listen()

    /// A tap-along at 100 BPM through ALSA's default device.
    public init() {}
  }

  /// What a headless run prints for each beat.
  public enum BeatEvents: String, CaseIterable, Sendable {
    /// Plain text lines.
    case text
    /// One JSON object per line.
    case ndjson
    /// Nothing: sound only.
    case none
  }
}
