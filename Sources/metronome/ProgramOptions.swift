import ArgumentParser
import MetronomeRun

/// `--map`, `--start-label`, `--count-in` and `--multiplier`, klick's `-f`, `-l`, `-c` and `-x`,
/// the step trainer's `--step`, `--to` and `--loop`, and `--gap`, shared by playing and exporting.
struct ProgramOptions: ParsableArguments {
  @Option(
    name: [.customShort("f"), .customLong("map")],
    help: ArgumentHelp(
      "Play a tempo map in klick's format from FILE ('-' for standard input): a section per line,"
        + " '[label:] bars [meter] tempo [pattern] [volume]'.", valueName: "file"))
  var map: String?

  @Option(
    help: ArgumentHelp(
      "Play a setlist from FILE ('-' for standard input): a song per line, '[title:] song', the song a map"
        + " file, a map line or 'tempo [meter] [pattern]'.", valueName: "file"))
  var setlist: String?

  @Option(
    name: [.customShort("l"), .customLong("start-label")],
    help: ArgumentHelp("Start the map at the section with this label.", valueName: "label"))
  var startLabel: String?

  @Option(
    name: [.customShort("c"), .customLong("count-in")],
    help: ArgumentHelp(
      "Count in this many bars before bar one, at the starting tempo and meter (0 counts two beats), or"
        + " this many beats with a b: 3b counts 2, 3, 4.", valueName: "count"))
  var countIn: String?

  @Option(
    name: [.customShort("x"), .customLong("multiplier")],
    help: ArgumentHelp(
      "Play this many times as fast as written, from 0.1 to 10 (0.8 for 80 %); with a map, tempo keys scale it.",
      valueName: "factor"))
  var multiplier: Double?

  @Option(
    help: ArgumentHelp(
      "Mute bars to test your inner clock: PLAY:MUTE plays and mutes in turn (3:1 mutes every fourth bar, 1 to"
        + " 1000 each); PERCENT% mutes that share of bars at random (25%), PERCENT%:beats of beats.",
      valueName: "gap"))
  var gap: String?

  @Option(help: ArgumentHelp("Draw random gaps with this seed, to mute the same bars again.", valueName: "n"))
  var seed: UInt64?

  @Option(
    help: ArgumentHelp(
      "A step trainer: change the tempo by STEP BPM every BARS bars (5/4), or about every SECONDS (5/30s), up"
        + " (or down, with a negative STEP: --step=-5/4) to --to.", valueName: "step/every"))
  var step: String?

  @Option(help: ArgumentHelp("The tempo a step trainer goes to, then holds.", valueName: "bpm"))
  var to: Double?

  @Flag(help: "Start a step trainer again from its first tempo once it has played its target for one step.")
  var loop = false

  @Option(
    help: ArgumentHelp(
      "Start at bar FIRST of the map (or trainer) and loop to bar LAST, seamlessly, until l releases the loop"
        + " (5-8; 5 for one bar).", valueName: "first-last"))
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
