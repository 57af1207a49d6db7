import ArgumentParser
import PracticeListening

/// Listening to the player: where the hits come from, which count, how they are judged.
public struct ListenOptions: ParsableArguments, Sendable {
  /// `--listen`: score the player's MIDI notes and audio attacks against the click.
  @Flag(help: "Score hits (MIDI notes, audio) against the click.")
  public var listen = false

  /// Where the hits come from and which notes count.
  @OptionGroup public var hits: HitSourceOptions

  /// `--onset-level`: the quietest attack on an audio input that counts, in dBFS.
  @Option(help: ArgumentHelp("Audio attacks this loud count (-50 dBFS).", valueName: "dB", visibility: .fullHelpOnly))
  public var onsetLevel: Double?

  /// `--onset-rise`: how far an attack must rise above the sound before it, in dB.
  @Option(
    help: ArgumentHelp("Audio attacks rising this far count (12 dB).", valueName: "dB", visibility: .fullHelpOnly))
  public var onsetRise: Double?

  /// `--input-offset`: milliseconds taken off every hit.
  @Option(
    help: ArgumentHelp(
      "Take this many ms off every hit (default: calibrated).", valueName: "ms", visibility: .fullHelpOnly))
  public var inputOffset: Double?

  /// `--tolerance`: milliseconds either way that count as on time.
  @Option(help: ArgumentHelp("On time within this many ms either way (20).", valueName: "ms"))
  public var tolerance: Double?

  /// `--earn`: the share of a step's beats hit within tolerance that earns the next step.
  @Option(help: ArgumentHelp("Step trainer: step up only at N% of beats on time.", valueName: "percent"))
  public var earn: Double?

  /// `--earn-back`: the BPM a step trainer falls back after two steps below `--earn`.
  @Option(
    help: ArgumentHelp(
      "With --earn: N BPM slower after two steps below it.", valueName: "bpm", visibility: .fullHelpOnly))
  public var earnBack: Double?

  /// `--earn-silence`: the click quieter bar by bar while every beat is hit on time.
  @Flag(help: "Fade the click out while every beat is on time.")
  public var earnSilence = false

  /// `--report`: the file the report is written to.
  @Option(
    help: ArgumentHelp("Write the hits when the run ends: .svg, .csv, .ndjson.", valueName: "file"),
    completion: .reportFiles)
  public var report: String?

  /// Not listening.
  public init() {}
}

/// Where the hits come from and which notes count: shared by playing and calibrating.
public struct HitSourceOptions: ParsableArguments, Sendable {
  /// `--listen-from`: ports to connect to `hits` (MIDI) or `mic` (audio, with JACK).
  @Option(
    help: ArgumentHelp("JACK ports to connect to 'hits' (MIDI) or 'mic'.", valueName: "ports"),
    completion: .jackPorts([.midi, .audio], inputs: false), transform: NameList.init(parsing:))
  public var listenFrom: NameList?

  /// `--listen-device`: the ALSA capture device audio is heard through, without JACK.
  @Option(
    help: ArgumentHelp("Listen to this ALSA capture device too.", valueName: "name"),
    completion: .alsaDevices(.capture))
  public var listenDevice: String?

  /// `--listen-notes`: the notes listened to; nil for every note.
  @Option(
    help: ArgumentHelp("Only these notes count (36,38 or 35-38).", valueName: "notes"),
    transform: { try HitFilter.notes(parsing: $0) })
  public var listenNotes: Set<Int>?

  /// `--listen-velocity`: the softest note that counts.
  @Option(help: ArgumentHelp("Only notes this hard count (1-127).", valueName: "n", visibility: .fullHelpOnly))
  public var listenVelocity = 1

  /// Every note, from the ports that connect themselves.
  public init() {}
}
