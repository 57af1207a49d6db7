import MetronomeCore
import MetronomeEngine
import TerminalUI

/// A request to play: what (the music), where to (an output), with which sync and controls.
///
/// Built once from the command line and checked as a whole; `Player.play` reads its files.
public struct PlayRequest: Sendable {
  /// Where the beats go.
  public enum Output: Sendable, Equatable {
    /// Virtual time: no audio, no waiting, the timeline printed at once.
    case virtual
    /// No audio, paced by the system clock.
    case silent
    /// An ALSA playback device, its period and its buffer.
    case alsa(device: String, periodFrames: Int, buffer: ALSABuffer)
    /// A JACK client of its own, named `clientName`, connected to `connections` (nil: the
    /// server's playback ports).
    case jack(clientName: String, connections: [String]?)
  }

  /// The outside clock that starts and places the beats, if any.
  public enum Clock: Sendable, Equatable {
    /// The JACK transport; as its timebase master when `isMaster`.
    case transport(isMaster: Bool)
    /// MIDI clock received on the JACK client's port `midi_in`, connected from `sources`.
    case midiClock(sources: [String])
    /// An Ableton Link session.
    case link
  }

  /// What to play.
  public let music: MusicRequest
  /// Where to.
  public let output: Output
  /// The clock the beats follow; nil for the metronome's own.
  public let clock: Clock?
  /// The MIDI clock and notes sent as the beats are heard; nil for none.
  public let midi: MIDIRequest?
  /// The key script's file (`-` for standard input), if any.
  public let keysPath: String?
  /// Whether beats are printed rather than shown on the display, even in a terminal.
  public let headless: Bool
  /// How the display looks.
  public let style: DisplayStyle
  /// How printed beats are written; nil prints nothing (sound only).
  public let events: BeatEventFormat?
  /// klick's OSC remote control, if asked for.
  public let remote: RemoteRequest?
  /// Listening to the player's hits, if asked for.
  public let listening: ListenRequest?
  /// Where the run is kept when it ends; nil for none (a virtual run, a calibration, `--no-journal`).
  public let journal: JournalKeeping?
  /// Whether the run is `metronome calibrate`'s tap-along: it ends once enough hits are scored
  /// and saves their median; without listening, the typed keys are the hits.
  public let calibrates: Bool

  /// The request `words` and `options` make; throws a usage error for a value out of range or
  /// options that do not go together.
  ///
  /// klick's OSC starts it stopped (`startsStopped`); `calibrates` makes it the tap-along.
  public init(words: RhythmWords, options: PlayOptions, startsStopped: Bool = false, calibrates: Bool = false)
    throws(RunError)
  {
    let (output, client) = (options.output, options.client)
    music = try MusicRequest(words, options.rhythm, options.length, options.sound, options.programme)
    clock = try Self.clock(options.sync, client: client)
    guard (16...65_536).contains(output.period) else { throw .usage("--period must be from 16 to 65536 frames") }
    if client.jack, output.device != "default" || output.silent || output.period != 256 || output.buffer != nil {
      throw .usage(
        "--jack plays through the JACK server, which sets the period: drop --device, --period, --buffer and --silent")
    }
    midi = try MIDIRequest.make(options.sync, virtual: output.virtual)
    if let buffer = output.buffer, buffer < 2 * output.period || buffer > 1 << 20 {
      throw .usage("--buffer must be at least two periods (\(2 * output.period) frames) and at most 1048576")
    }
    if music.programme.readsStandardInput, output.keys == "-" {
      throw .usage(
        "--\(music.programme.mapPath == nil ? "setlist" : "map") - and --keys - both read standard input: give one of"
          + " them a file")
    }
    self.output =
      if output.virtual {
        .virtual
      } else if client.jack {
        .jack(clientName: client.clientName, connections: client.connections)
      } else if output.silent {
        .silent
      } else {
        .alsa(
          device: output.device, periodFrames: output.period,
          buffer: output.buffer.map(ALSABuffer.fixed) ?? .adapting(periodFrames: output.period))
      }
    keysPath = output.keys
    headless = output.headless
    if output.big, output.plain { throw .usage("--big and --plain are two displays: choose one") }
    style = output.big ? .big : output.plain ? .plain : .standard
    if style != .standard, output.headless || output.virtual {
      throw .usage("--\(style) is a display: drop --\(output.headless ? "headless" : "virtual"), which prints beats")
    }
    events = BeatEventFormat(rawValue: output.events.rawValue)
    remote = try RemoteRequest(options.remote, virtual: output.virtual, startsStopped: startsStopped)
    listening = try ListenRequest.make(options.listen, jack: client.jack, output: output)
    if let earn = listening?.earn {
      guard let step = options.programme.step, options.programme.to != nil else {
        throw .usage(
          "--earn steps a step trainer as its steps are earned: give --step and --to, such as --step 5/4 --to 120")
      }
      if let back = earn.back, (back / abs(step.change)).rounded() != back / abs(step.change) {
        throw .usage(
          "--earn-back \(Tempo.format(back)) falls back whole steps of \(Tempo.format(abs(step.change))) BPM:"
            + " give \(Tempo.format(abs(step.change))) or a multiple of it")
      }
    }
    self.calibrates = calibrates
    journal = calibrates ? nil : try JournalKeeping.make(options.journal, options.journalFile, virtual: output.virtual)
  }

  /// What the engine plays: the music's files read, then made to fit the run.
  ///
  /// On the display (`interactive`) a setlist's song waits for the player at its end, where a
  /// printed run plays the set through; an outside clock starts the beats (a transport's master
  /// in any meter); klick's OSC may start it stopped; a count-in plays as the bars will where a
  /// microphone listens (`hearsAudio`).
  public func settings(interactive: Bool) throws(RunError) -> PlaybackSettings {
    var settings = try music.load()
    settings.programme.setlist = settings.programme.setlist?.waiting(interactive)
    ClockConnection.adapt(&settings, to: clock)
    if remote?.startsStopped == true { settings.startsPlaying = false }
    settings.programme.countInPlaysTheBar = hearsAudio
    settings.programme.holdsSections = listening?.earn != nil
    return settings
  }

  /// Whether a microphone or a line input is listened to (`--listen` with `--jack`'s port `mic`,
  /// or a `--listen-device`), outside a calibration's tap-along, which hears MIDI or keys.
  ///
  /// Its count-in then plays as the bars will (their clicks, divided after the first two beats,
  /// with the second voice): the room's answer to each is learned before the player plays over
  /// them, where a count-in of its own sound would teach nothing of theirs.
  public var hearsAudio: Bool {
    guard let listening, !calibrates else { return false }
    if case .jack = output { return true }
    return listening.captureDevice != nil
  }

  /// The clock the sync options ask to follow; throws for JACK's options without `--jack`, two
  /// clocks at once, or Link in a build without it.
  private static func clock(_ sync: SyncOptions, client: JACKClientOptions) throws(RunError) -> Clock? {
    let followsTransport = sync.followTransport || sync.timebaseMaster
    let clocks = [
      (followsTransport, "the JACK transport"), (sync.followMIDIClock, "--follow-midi-clock"), (sync.link, "--link"),
    ].filter(\.0).map(\.1)
    if !client.jack,
      client.connect != nil || client.clientName != "metronome" || sync.midiClockFrom != nil || !clocks.isEmpty
    {
      throw .usage(
        "--connect, --client-name, --follow-transport, --timebase-master, --follow-midi-clock and --link"
          + " are for a JACK client: add --jack")
    }
    if clocks.count > 1 {
      throw .usage("\(clocks.joined(separator: " and ")) would each place the beats: choose one")
    }
    if sync.midiClockFrom != nil, !sync.followMIDIClock {
      throw .usage("--midi-clock-from connects the MIDI clock followed: add --follow-midi-clock")
    }
    #if !AbletonLink
    if sync.link {
      throw .usage(
        "this metronome was built without Ableton Link: build it with scripts/install --link (the binary is then GPL)")
    }
    #endif
    if followsTransport { return .transport(isMaster: sync.timebaseMaster) }
    if sync.followMIDIClock { return .midiClock(sources: sync.midiClockFrom?.ports ?? []) }
    return sync.link ? .link : nil
  }
}
