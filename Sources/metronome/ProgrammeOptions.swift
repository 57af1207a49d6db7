import ArgumentParser
import MetronomeRun

/// The practice programme: klick's `-f`, `-l`, `-c` and `-x`, setlists, gaps, the step trainer
/// and loops, shared by playing and exporting.
struct ProgrammeOptions: ParsableArguments {
  @Option(
    name: [.customShort("f"), .customLong("map")],
    help: ArgumentHelp("Play a tempo map in klick's format.", valueName: "file"), completion: .tempoMaps)
  var map: String?

  @Option(help: ArgumentHelp("Play the songs of a setlist in turn.", valueName: "file"), completion: .file())
  var setlist: String?

  @Option(
    name: [.customShort("l"), .customLong("start-label")],
    help: ArgumentHelp("Start the map at this section.", valueName: "sec"))
  var startLabel: String?

  @Option(
    name: [.customShort("c"), .customLong("count-in")],
    help: ArgumentHelp("Count in N bars, or N beats as Nb.", valueName: "n"))
  var countIn: String?

  @Option(
    name: [.customShort("x"), .customLong("multiplier")],
    help: ArgumentHelp("Play this many times as fast (0.8).", valueName: "x"))
  var multiplier: Double?

  @Option(help: ArgumentHelp("Mute bars: 3:1 in turn, 25% at random.", valueName: "gap"))
  var gap: String?

  @Option(help: ArgumentHelp("Seed of random gaps, to repeat them.", valueName: "n", visibility: .fullHelpOnly))
  var seed: UInt64?

  @Option(help: ArgumentHelp("Step trainer: 5/4 is +5 BPM every 4 bars.", valueName: "step"))
  var step: String?

  @Option(help: ArgumentHelp("The tempo the step trainer goes to.", valueName: "bpm"))
  var to: Double?

  @Flag(help: ArgumentHelp("Start the step trainer again after its target.", visibility: .fullHelpOnly))
  var loop = false

  @Option(help: ArgumentHelp("Loop bars FIRST-LAST of the map (5-8).", valueName: "bars"))
  var loopBars: String?

  /// The values given.
  var options: RequestOptions.Programme {
    var options = RequestOptions.Programme()
    (options.map, options.setlist, options.startLabel, options.countIn) = (map, setlist, startLabel, countIn)
    (options.multiplier, options.gap, options.seed) = (multiplier, gap, seed)
    (options.step, options.to, options.loop, options.loopBars) = (step, to, loop, loopBars)
    return options
  }
}
