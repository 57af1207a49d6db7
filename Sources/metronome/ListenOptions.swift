import ArgumentParser
import MetronomeRun

/// Listening to the player: where the hits come from, which count, how they are judged.
struct ListenOptions: ParsableArguments {
  @Flag(help: "Score hits (MIDI notes, audio) against the click.")
  var listen = false

  @OptionGroup var notes: HitSourceOptions

  @Option(help: ArgumentHelp("Audio attacks this loud count (-50 dBFS).", valueName: "dB", visibility: .fullHelpOnly))
  var onsetLevel: Double?

  @Option(
    help: ArgumentHelp("Audio attacks rising this far count (12 dB).", valueName: "dB", visibility: .fullHelpOnly))
  var onsetRise: Double?

  @Option(
    help: ArgumentHelp(
      "Take this many ms off every hit (default: calibrated).", valueName: "ms", visibility: .fullHelpOnly))
  var inputOffset: Double?

  @Option(help: ArgumentHelp("On time within this many ms either way (20).", valueName: "ms"))
  var tolerance: Double?

  @Option(
    help: ArgumentHelp("Write the hits when the run ends: .svg, .csv, .ndjson.", valueName: "file"),
    completion: .reportFiles)
  var report: String?

  /// The values given.
  var options: RequestOptions.Listen {
    var listen = RequestOptions.Listen()
    listen.listen = self.listen
    notes.fill(&listen)
    (listen.inputOffset, listen.tolerance, listen.report) = (inputOffset, tolerance, report)
    (listen.onsetLevel, listen.onsetRise) = (onsetLevel, onsetRise)
    return listen
  }
}

/// Where the hits come from and which notes count: shared by playing and calibrating.
struct HitSourceOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp("JACK ports to connect to 'hits' (MIDI) or 'mic'.", valueName: "ports"),
    completion: .jackPorts([.midi, .audio], inputs: false))
  var listenFrom: String?

  @Option(
    help: ArgumentHelp("Listen to this ALSA capture device too.", valueName: "name"),
    completion: .alsaDevices(.capture))
  var listenDevice: String?

  @Option(help: ArgumentHelp("Only these notes count (36,38 or 35-38).", valueName: "notes"))
  var listenNotes: String?

  @Option(help: ArgumentHelp("Only notes this hard count (1-127).", valueName: "n", visibility: .fullHelpOnly))
  var listenVelocity = 1

  /// The values given, into `listen`.
  func fill(_ listen: inout RequestOptions.Listen) {
    (listen.from, listen.device, listen.notes, listen.velocity) = (
      listenFrom, listenDevice, listenNotes, listenVelocity
    )
  }
}
