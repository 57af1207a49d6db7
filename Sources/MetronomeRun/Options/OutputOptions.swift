import ArgumentParser

/// Where a live run plays and how it shows its beats.
public struct OutputOptions: ParsableArguments, Sendable {
  /// `--device`: the ALSA playback device.
  @Option(help: "ALSA playback device.", completion: .alsaDevices(.playback))
  public var device = "default"

  /// `--period`, in frames.
  @Option(help: ArgumentHelp("ALSA period size in frames.", visibility: .fullHelpOnly))
  public var period = 256

  /// `--buffer`, in frames.
  @Option(help: ArgumentHelp("ALSA buffer in frames (default: grows on underruns).", visibility: .fullHelpOnly))
  public var buffer: Int?

  /// `--list-devices`: the ALSA playback devices listed instead of playing.
  @Flag(help: ArgumentHelp("List the ALSA playback devices and exit.", visibility: .fullHelpOnly))
  public var listDevices = false

  /// `--silent`: paced by the system clock, no audio.
  @Flag(help: "Play no audio, paced by the system clock.")
  public var silent = false

  /// `--virtual`: virtual time, printed at once.
  @Flag(help: "Virtual time: print the exact timeline at once.")
  public var virtual = false

  /// `--headless`: lines instead of the display.
  @Flag(help: "Print beats instead of showing the display.")
  public var headless = false

  /// `--big`: the display for the room.
  @Flag(help: "A display for the room: the beat in large digits.")
  public var big = false

  /// `--plain`: the display for screen readers.
  @Flag(help: "For screen readers: a printed line per change.")
  public var plain = false

  /// `--events`: how headless lines are written.
  @Option(help: "Lines.")
  public var events: PrintedBeats = .text

  /// `--keys`: a key script, or `-` for standard input.
  @Option(help: ArgumentHelp("Replay timed key presses ('-': stdin).", valueName: "file"), completion: .file())
  public var keys: String?

  /// ALSA's `default` device, with the display in a terminal.
  public init() {}
}

/// What a headless run prints for each beat.
public enum PrintedBeats: String, CaseIterable, Sendable, ExpressibleByArgument {
  /// Plain text lines.
  case text
  /// One JSON object per line.
  case ndjson
  /// Nothing: sound only.
  case none
}
