import ArgumentParser
import MetronomeRun

/// Where a live run plays and how it shows its beats.
struct OutputOptions: ParsableArguments {
  @Option(help: "ALSA playback device.", completion: .alsaDevices(.playback))
  var device = "default"

  @Option(help: ArgumentHelp("ALSA period size in frames.", visibility: .fullHelpOnly))
  var period = 256

  @Option(help: ArgumentHelp("ALSA buffer in frames (default: grows on underruns).", visibility: .fullHelpOnly))
  var buffer: Int?

  @Flag(help: ArgumentHelp("List the ALSA playback devices and exit.", visibility: .fullHelpOnly))
  var listDevices = false

  @Flag(help: "Play no audio, paced by the system clock.")
  var silent = false

  @Flag(help: "Virtual time: print the exact timeline at once.")
  var virtual = false

  @Flag(help: "Print beats instead of showing the display.")
  var headless = false

  @Flag(help: "A display for the room: the beat in large digits.")
  var big = false

  @Flag(help: "For screen readers: a printed line per change.")
  var plain = false

  @Option(help: "Lines.")
  var events: RequestOptions.BeatEvents = .text

  @Option(help: ArgumentHelp("Replay timed key presses ('-': stdin).", valueName: "file"), completion: .file())
  var keys: String?

  /// The values given.
  var options: RequestOptions.Output {
    var options = RequestOptions.Output()
    (options.device, options.period, options.buffer) = (device, period, buffer)
    (options.silent, options.virtual, options.headless, options.events, options.keys) =
      (silent, virtual, headless, events, keys)
    (options.big, options.plain) = (big, plain)
    return options
  }
}

extension RequestOptions.BeatEvents: ExpressibleByArgument {}
