import MetronomeCore

/// The practice programme asked for, checked: a map or setlist file to read, a trainer, a
/// count-in, a gap, a multiplier and bars to loop.
public struct ProgrammeRequest: Sendable {
  /// The tempo map's file (`-` for standard input), if any.
  public let mapPath: String?
  /// The setlist's file (`-` for standard input), if any.
  public let setlistPath: String?
  /// The map's section to start at, if any.
  public let startLabel: String?
  /// klick's trainer or a step trainer, as a map; nil for none.
  public let trainer: TempoMap?
  /// The tempo the trainer ends at, nil without one: its last section's, which holds one tempo
  /// (klick's trainer holds its target; a step trainer's last step is its target).
  public var trainerTarget: Double? { trainer?.sections.last?.bpm(ofBeat: 0) }
  /// How much faster than written it plays.
  public let multiplier: Double
  /// The count-in asked for, if any.
  public let countIn: CountIn?
  /// The bars muted, if any.
  public let gap: Gap?
  /// The bars looped, if any.
  public let loopBars: ClosedRange<Int>?
  /// The seed random gaps are drawn with: `--seed`, or one drawn once per run.
  public let seed: UInt64
  /// What it plays beyond one steady tempo, in a few words, as the journal keeps it: "map
  /// song.map", "step 5/4 to 120, gap 3:1"; "steady" for nothing more.
  public let words: String

  /// The programme `options` ask for, starting from the words' meter and tempo in `pattern`;
  /// throws a usage error for options that do not go together or a value out of range.
  public init(_ options: ProgrammeOptions, start: MeterAndTempo, pattern: AccentPattern?) throws(RunError) {
    seed = options.seed ?? Self.seedOfThisRun
    gap = options.gap?.seeded(seed)
    if options.seed != nil, options.gap == nil, options.map == nil, options.setlist == nil {
      throw .usage("--seed draws random gaps: give one with --gap 25% (or gap= in a map)")
    }
    if (options.to != nil || options.loop) != (options.step != nil) || (options.step != nil && options.to == nil) {
      throw .usage("a step trainer needs both --step and --to, such as --step 5/4 --to 120")
    }
    if options.step != nil, options.map != nil { throw .usage("give a step trainer or a map, not both") }
    if options.setlist != nil,
      options.map != nil || options.step != nil || options.startLabel != nil || options.loopBars != nil
    {
      throw .usage("a setlist names its songs' maps: drop --map, --step, --start-label and --loop-bars")
    }
    loopBars = options.loopBars
    countIn = options.countIn
    if let multiplier = options.multiplier, !(multiplier.isFinite && (0.1...10).contains(multiplier)) {
      throw .usage("--multiplier must be from 0.1 to 10, such as 0.8 for 80 %")
    }
    multiplier = options.multiplier ?? 1
    if options.startLabel != nil, options.map == nil {
      throw .usage("--start-label names a section of a map: give the map with --map")
    }
    if options.step != nil, start.trainer != nil {
      throw .usage("give klick's trainer (80-120/10) or a step trainer (--step), not both")
    }
    if let klicks = start.trainerMap(pattern: pattern) {
      trainer = klicks
    } else {
      trainer = try Self.stepTrainer(options, from: start, pattern: pattern)
    }
    mapPath = options.map
    setlistPath = options.setlist
    startLabel = options.startLabel
    words = Self.words(options, start: start)
  }

  /// The words `words` holds for `options`, and a klick trainer among `start`'s.
  private static func words(_ options: ProgrammeOptions, start: MeterAndTempo) -> String {
    var parts: [String] = []
    if let setlist = options.setlist { parts.append("setlist \(setlist)") }
    if let map = options.map { parts.append("map \(map)" + (options.startLabel.map { " from \($0)" } ?? "")) }
    if let trainer = start.trainer {
      parts.append(
        "trainer \(Tempo.format(start.tempo.bpm))-\(Tempo.format(trainer.target.bpm))/\(Tempo.format(trainer.barsPerBPM))"
      )
    }
    if let step = options.step, let to = options.to {
      parts.append("step \(step) to \(Tempo.format(to))" + (options.loop ? ", looping" : ""))
    }
    if let gap = options.gap { parts.append("gap \(gap)") }
    if let bars = options.loopBars { parts.append("loop bars \(bars.lowerBound)-\(bars.upperBound)") }
    if let multiplier = options.multiplier, multiplier != 1 { parts.append("multiplier \(Tempo.format(multiplier))") }
    return parts.isEmpty ? "steady" : parts.joined(separator: ", ")
  }

  /// Whether a map or setlist is to be read from standard input.
  public var readsStandardInput: Bool { mapPath == "-" || setlistPath == "-" }

  private static let seedOfThisRun = UInt64.random(in: 0...UInt64.max)

  /// The step trainer `--step`, `--to` and `--loop` ask for, from the words' tempo in their meter
  /// and `pattern`; nil without one.
  private static func stepTrainer(_ options: ProgrammeOptions, from start: MeterAndTempo, pattern: AccentPattern?)
    throws(RunError) -> TempoMap?
  {
    guard let step = options.step, let to = options.to else { return nil }
    let target: Tempo
    do { target = try Tempo(bpm: to) } catch { throw .usage("--to: \(error)") }
    guard
      let map = TempoMap.stepTrainer(
        from: start.tempo.bpm, to: target.bpm, step: step.change, every: step.length, meter: start.meter,
        pattern: pattern, loops: options.loop)
    else {
      throw .usage(
        "--step \(step) does not lead from \(start.tempo) to \(target) in at most \(TempoMap.mostSteps) steps:"
          + " step towards it, such as \(target.bpm >= start.tempo.bpm ? "5" : "-5")/4")
    }
    return map
  }
}
