import ArgumentParser
import MetronomeCore

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

  func validate() throws {
    _ = try parsedGap
    if seed != nil, gap == nil, map == nil, setlist == nil {
      throw ValidationError("--seed draws random gaps: give one with --gap 25% (or gap= in a map)")
    }
    if (to != nil || loop) != (step != nil) || (step != nil && to == nil) {
      throw ValidationError("a step trainer needs both --step and --to, such as --step 5/4 --to 120")
    }
    if step != nil, map != nil { throw ValidationError("give a step trainer or a map, not both") }
    if setlist != nil, map != nil || step != nil || startLabel != nil || loopBars != nil {
      throw ValidationError("a setlist names its songs' maps: drop --map, --step, --start-label and --loop-bars")
    }
    _ = try parsedLoopBars
    _ = try parsedCountIn
    if let multiplier, !(multiplier.isFinite && (0.1...10).contains(multiplier)) {
      throw ValidationError("--multiplier must be from 0.1 to 10, such as 0.8 for 80 %")
    }
    if startLabel != nil, map == nil {
      throw ValidationError("--start-label names a section of a map: give the map with --map")
    }
  }

  /// The step trainer `--step`, `--to` and `--loop` ask for, from `start` in `meter` and
  /// `pattern`; nil without one.
  func stepTrainer(from start: Tempo, meter: Meter, pattern: AccentPattern?) throws -> TempoMap? {
    guard let step, let to else { return nil }
    let parts = step.split(separator: "/", omittingEmptySubsequences: false)
    let length: TempoMap.StepLength?
    if parts.count == 2, parts[1].hasSuffix("s"), let seconds = Double(parts[1].dropLast()), seconds.isFinite,
      seconds > 0
    {
      length = .seconds(seconds)
    } else if parts.count == 2, let bars = Int(parts[1]), (1...TempoMapParser.maximumBars).contains(bars) {
      length = .bars(bars)
    } else {
      length = nil
    }
    guard let length, let change = Double(parts[0]) else {
      throw ValidationError("--step '\(step)' is not STEP/BARS or STEP/SECONDSs, such as 5/4 or 5/30s")
    }
    let target: Tempo
    do { target = try Tempo(bpm: to) } catch { throw ValidationError("--to: \(error)") }
    guard
      let map = TempoMap.stepTrainer(
        from: start.bpm, to: target.bpm, step: change, every: length, meter: meter, pattern: pattern, loops: loop)
    else {
      throw ValidationError(
        "--step \(step) does not lead from \(start) to \(target) in at most \(TempoMap.mostSteps) steps:"
          + " step towards it, such as \(target.bpm >= start.bpm ? "5" : "-5")/4")
    }
    return map
  }

  /// The bars `--loop-bars FIRST-LAST` asks for; nil without.
  var parsedLoopBars: ClosedRange<Int>? {
    get throws {
      guard let loopBars else { return nil }
      let parts = loopBars.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
      guard (1...2).contains(parts.count), let first = parts[0], let last = parts.last ?? nil, first >= 1,
        last >= first
      else {
        throw ValidationError("--loop-bars '\(loopBars)' is not FIRST-LAST bars of the map, such as 5-8 (or 5)")
      }
      return first...last
    }
  }

  /// The count-in `--count-in` asks for; nil without one.
  var parsedCountIn: CountIn? {
    get throws {
      guard let countIn else { return nil }
      do { return try CountIn(parsing: countIn) } catch { throw ValidationError("--count-in: \(error)") }
    }
  }

  /// The gap `--gap` asks for; nil without one.
  var parsedGap: Gap? {
    get throws {
      guard let gap else { return nil }
      do { return try Gap(parsing: gap, seed: randomSeed) } catch { throw ValidationError("--gap: \(error)") }
    }
  }

  /// The seed random gaps are drawn with: `--seed`, or one drawn once per run.
  var randomSeed: UInt64 { seed ?? Self.seedOfThisRun }

  private static let seedOfThisRun = UInt64.random(in: 0...UInt64.max)

  /// The map `--map` names, read and checked once a run starts; nil without one.
  ///
  /// A map that cannot be read or parsed ends the program with one line, as a compiler reports an error
  /// (`FILE:LINE:COLUMN: error: what was expected`), and status 65; a file that cannot be opened
  /// with status 66.
  func loadMap() -> TempoMap? {
    guard let map else { return nil }
    let source = TextFile.source(map)
    do {
      let parsed = try TempoMapParser.parse(TextFile.tempoMap.textOrExit(of: map), source: source, seed: randomSeed)
      guard let startLabel else { return parsed }
      guard let started = parsed.starting(at: startLabel) else {
        let labels = parsed.sections.compactMap(\.label)
        Metronome.exit(
          saying:
            "\(source): error: no section is labelled '\(startLabel)'; "
            + (labels.isEmpty ? "the map has no labels" : "its labels are \(labels.joined(separator: ", "))"),
          status: 65)
      }
      return started
    } catch {
      Metronome.exit(saying: "\(error)", status: 65)
    }
  }

  /// The setlist `--setlist` names, with the maps it names (beside it), read and checked once a
  /// run starts; nil without one.
  ///
  /// Errors end the program as `loadMap()` says, located in the setlist or in the map that has them.
  func loadSetlist() -> Setlist? {
    guard let setlist else { return nil }
    let source = TextFile.source(setlist)
    let folder =
      setlist == "-"
      ? "" : String(setlist[..<(setlist.lastIndex(of: "/").map(setlist.index(after:)) ?? setlist.startIndex)])
    var status: Int32 = 65
    do {
      return try SetlistParser.parse(TextFile.setlist.textOrExit(of: setlist), source: source, seed: randomSeed) {
        path, line, column throws(TempoMapError) in
        let file = path.hasPrefix("/") ? path : folder + path
        switch path == "-" ? nil : TextFile.tempoMap.text(of: file) {
        case .success(let text)?:
          return try TempoMapParser.parse(text, source: file, seed: randomSeed)
        case .failure(let unreadable)?:
          status = unreadable.status
          throw TempoMapError(source: source, line: line, column: column, message: "\(file): \(unreadable.message)")
        case nil:
          throw TempoMapError(
            source: source, line: line, column: column, message: "a song's map is read from a file, not standard input")
        }
      }
    } catch {
      Metronome.exit(saying: "\(error)", status: status)
    }
  }
}
