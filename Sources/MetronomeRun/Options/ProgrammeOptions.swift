import ArgumentParser
import MetronomeCore

/// The practice programme: klick's `-f`, `-l`, `-c` and `-x`, setlists, gaps, the step trainer
/// and loops, shared by playing and exporting.
public struct ProgrammeOptions: ParsableArguments, Sendable {
  /// `--map`: a file, or `-` for standard input.
  @Option(
    name: [.customShort("f"), .customLong("map")],
    help: ArgumentHelp("Play a tempo map in klick's format.", valueName: "file"), completion: .tempoMaps)
  public var map: String?

  /// `--setlist`: a file, or `-` for standard input.
  @Option(help: ArgumentHelp("Play the songs of a setlist in turn.", valueName: "file"), completion: .file())
  public var setlist: String?

  /// `--start-label`: the map's section to start at.
  @Option(
    name: [.customShort("l"), .customLong("start-label")],
    help: ArgumentHelp("Start the map at this section.", valueName: "sec", visibility: .fullHelpOnly))
  public var startLabel: String?

  /// `--count-in`: bars, or beats with a `b`.
  @Option(
    name: [.customShort("c"), .customLong("count-in")],
    help: ArgumentHelp("Count in N bars, or N beats as Nb.", valueName: "n"),
    transform: { try CountIn(parsing: $0) })
  public var countIn: CountIn?

  /// `--multiplier`.
  @Option(
    name: [.customShort("x"), .customLong("multiplier")],
    help: ArgumentHelp("Play this many times as fast (0.8).", valueName: "x"))
  public var multiplier: Double?

  /// `--gap`: PLAY:MUTE or PERCENT%, its random bars drawn with `seed`.
  @Option(
    help: ArgumentHelp("Mute bars: 3:1 in turn, 25% at random.", valueName: "gap"),
    transform: { try Gap(parsing: $0, seed: 0) })
  public var gap: Gap?

  /// `--seed` of random gaps.
  @Option(help: ArgumentHelp("Seed of random gaps, to repeat them.", valueName: "n", visibility: .fullHelpOnly))
  public var seed: UInt64?

  /// `--step`: STEP/BARS or STEP/SECONDSs.
  @Option(
    help: ArgumentHelp("Step trainer: 5/4 is +5 BPM every 4 bars.", valueName: "step"),
    transform: { try TempoStep(parsing: $0) })
  public var step: TempoStep?

  /// `--to`: the step trainer's target.
  @Option(help: ArgumentHelp("The tempo the step trainer goes to.", valueName: "bpm"))
  public var to: Double?

  /// `--loop`: the step trainer starts again.
  @Flag(help: ArgumentHelp("Start the step trainer again after its target.", visibility: .fullHelpOnly))
  public var loop = false

  /// `--loop-bars`: FIRST-LAST.
  @Option(
    help: ArgumentHelp("Loop bars FIRST-LAST of the map (5-8).", valueName: "bars"),
    transform: { try ClosedRange(bars: $0) })
  public var loopBars: ClosedRange<Int>?

  /// None: one steady tempo.
  public init() {}
}
