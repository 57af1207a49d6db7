import ArgumentParser
import MetronomeCore

/// `metronome calibrate`'s options: the tempo, the output, where the hits or the signal come
/// back, and whether the round trip is measured.
public struct CalibrateOptions: ParsableArguments, Sendable {
  /// `[TEMPO]`: the tempo to hit along with.
  @Argument(help: ArgumentHelp("The tempo to hit along with.", valueName: "tempo"))
  public var tempo = "100"

  /// `--device`: the ALSA playback device.
  @Option(help: "ALSA playback device.", completion: .alsaDevices(.playback))
  public var device = "default"

  /// `--rate`, in Hz.
  @Option(help: "Sample rate in Hz.")
  public var rate: Int = SampleRate.standard.hz

  /// The JACK client it plays as.
  @OptionGroup public var client: JACKClientOptions

  /// Where the hits (or the loopback's signal) come from.
  @OptionGroup(title: "Listening") public var hits: HitSourceOptions

  /// `--loopback`: measure the round trip instead of the player.
  @Flag(help: "Measure the round trip from the output back to 'mic' (--jack) or --listen-device.")
  public var loopback = false

  /// `--headless`: hits printed instead of shown.
  @Flag(help: "Print the hits instead of showing the display (with MIDI).")
  public var headless = false

  /// `--events`: how printed lines are written.
  @Option(help: "Lines.")
  public var events: PrintedBeats = .text

  /// A tap-along at 100 BPM through ALSA's default device.
  public init() {}
}
