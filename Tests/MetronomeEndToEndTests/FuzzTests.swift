import Foundation
import MetronomeCore
import MetronomeTesting
import PracticeJournal
import PracticeListening
import TerminalUI
import Testing

/// Generated and mutated inputs, valid ones bent out of shape, thrown at the parsers and at the
/// binary as it ships (see `MetronomeProcess.shipped`).
///
/// Whatever comes in, metronome never dies of a signal, exits only 0, 1, 64, 65, 66, 130 or 143,
/// and says what was wrong in one `Error: …` line when it does not exit 0 (for a tempo map that
/// cannot be read, one `FILE[:LINE:COLUMN]: error: …` line, as a compiler writes it). The seed is
/// printed with every failure; `METRONOME_FUZZ_SEED` replays it and `METRONOME_FUZZ_RUNS` sets
/// how many runs of the binary there are (1000 by default).
@Suite(.timeLimit(.minutes(10)))
struct FuzzTests {
  static let seed = ProcessInfo.processInfo.environment["METRONOME_FUZZ_SEED"].flatMap { UInt64($0) } ?? 20_261_122
  static let binaryRuns = ProcessInfo.processInfo.environment["METRONOME_FUZZ_RUNS"].flatMap { Int($0) } ?? 1_000

  /// Numbers as people and programs spell them, including the ones no frame count can hold.
  static let numbers = [
    "0", "1", "2", "3", "7", "16", "64", "120", "97.5", "-0", "-1", "-5.25", "1000", "1001", "0.001", "1e-300",
    "1e8", "1e15", "1e300", "1e400", "-1e400", "nan", "NaN", "-nan", "inf", "-inf", "infinity", "0x10", "1_000",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551616", "", " ", "1,5",
    "٣", "1e", ".", "+3",
  ]
  static let meters = [
    "4/4", "7/8", "6/8", "3/4", "5/4", "24/32", "64/64", "1/1", "0/4", "7/3", "4/0", "-1/4", "4/-4", "4/", "/4", "/",
    "a/b", "4/4/4", "9223372036854775807/4", "4/9223372036854775807", "1e3/4",
  ]
  static let patterns = [
    "X", "x", ".", "o", "Xxxx", "X..x..", "X.xx", "Xoxoxoo", "....", "XXXXXXXXX", "Xx-x", "Xxqx", "xX", "X x",
    "2+2+3", "3+3", "1", "2+", "+2", "2++3", "0+4", "compound", "9223372036854775807+1", "-2+6", "",
    "/dev/null", "no-such.wav", ",,,", "/etc/hostname,,",
  ]
  static let options = [
    "--beats", "--bars", "--duration", "--rate", "--volume", "--max-numerator", "--period", "--buffer", "--sound",
    "--events", "--format", "--device", "--keys", "-o", "--output", "--pattern", "--group", "--subdivide", "--swing",
    "--poly", "--samples", "--map", "-f", "--start-label", "-l", "--count-in", "-c", "--multiplier", "-x", "--gap",
    "--step", "--to", "--seed", "--setlist", "--loop-bars", "--connect", "--client-name", "--midi-connect",
    "--midi-clock-from", "--osc", "--osc-return", "--osc-host", "--listen-from", "--listen-device", "--listen-notes",
    "--listen-velocity", "--generate-completion-script", "--midi-note-map", "--voice-dir",
    "--input-offset", "--tolerance", "--report", "--onset-level", "--onset-rise", "-W", "-r", "-s", "-S", "-v", "-w",
    "-d", "-n", "-p",
    "-R", "--tag", "--journal", "--since", "--day", "--last", "--export", "--earn", "--earn-back",
  ]
  static let flags = [
    "--virtual", "--silent", "--headless", "--bogus", "-", "--", "-h", "--help-hidden", "--version", "export",
    "devices", "help",
    "--loop", "--jack", "--follow-transport", "--timebase-master", "--midi-clock", "--midi-notes",
    "--follow-midi-clock", "--link", "--big", "--plain", "--voice", "--with-click",
    "klick", "--listen", "calibrate", "--loopback", "---completion", "-j", "-P", "-i", "-e", "-E", "-t", "-T", "-V",
    "-L", "-Pj", "journal", "--no-journal", "--forget", "--all", "--earn-silence",
  ]
  static let words = [
    "pulse", "beep", "woodblock", "text", "ndjson", "none", "16", "24", "float", "no-such-device", "x", "intro",
    "80-120/10", "120-80/0.5", "1-1000/1e9", "80-120/", "-120/10", "80-120/nan", "map.txt", "/dev/zero", "3:1",
    "1:1000", "0:1", "1:0", "a:b", "3:1:1", ":", "5/4", "-5/4", "5/30s", "0/4", "5/0s", "1e-9/1", "5/1e300s", "1e300/4",
    "5/9223372036854775808", "25%", "0%", "100%:beats", "101%", "%", "25%:bars", "18446744073709551616", "2-3", "3-2",
    "2-", "1-9223372036854775807", "3b", "0b", "b", "257b", "128:0", "recorder:in", "system",
    "36,38", "35-38", "38-35", "36,", "take.svg", "take.csv", "take.ndjson", "take.png", "/take.svg", "bash", "zsh",
    "fish", "click.mp3", "click.opus", "34/10,33", ",,,,,35/9", "128/1", "33/0", "33/17", "1,2,3,4,5,6,7", "/",
    "groove", "today", "yesterday", "2026-11-27", "2026-13-01", "7d", "4w", "-1d", "journal.sqlite3", "trend.html",
    "takes.ndjson", "trend.svg", "\t", "é",
  ]
  static let keyNames = [
    "space", "up", "down", "left", "right", "esc", "q", "]", "[", "}", "{", "*", "/", "+", "-", "t", "r", "z", "1",
    "3", "9", "0", "s", "S", "w", "W", "m", "p", "n", "b", "l", "N", "B",
    "spacebar",
    "ü", "\u{0}",
  ]

  /// A text of `count` lines made by `line`, some then truncated, reversed, replaced by noise,
  /// commented out or followed by `extra`, joined by any kind of line break.
  static func text(
    _ random: inout SeededGenerator, lines count: ClosedRange<Int>, extra: String,
    line makeLine: (inout SeededGenerator) -> String
  ) -> String {
    var lines: [String] = []
    for _ in 0..<Int.random(in: count, using: &random) {
      var line = makeLine(&random)
      switch Int.random(in: 0..<8, using: &random) {
      case 0: line = String(line.prefix(Int.random(in: 0...line.count, using: &random)))
      case 1: line = String(line.reversed())
      case 2:
        line = String(
          decoding: (0..<Int.random(in: 1...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) },
          as: UTF8.self)
      case 3: line = "# " + line
      case 4: line += extra
      default: break
      }
      lines.append(line)
    }
    return lines.joined(separator: ["\n", "\r\n", "\r"].randomElement(using: &random) ?? "\n")
  }

  /// A key script: valid lines, then some mutated, truncated, swapped or replaced by noise.
  static func keyScript(_ random: inout SeededGenerator) -> String {
    text(&random, lines: 0...8, extra: " extra") { random in
      let seconds =
        Bool.random(using: &random)
        ? String(Double.random(in: 0...5, using: &random)) : numbers.randomElement(using: &random) ?? ""
      return
        "\(seconds)\(["\t", " ", "  "].randomElement(using: &random) ?? " ")\(keyNames.randomElement(using: &random) ?? "q")"
    }
  }

  /// A tempo map in klick's format: valid lines, then some mutated, truncated, swapped or
  /// replaced by noise.
  static func mapText(_ random: inout SeededGenerator) -> String {
    let labels = ["", "", "intro: ", "verse-1:", "a_b: ", ": ", "bad label: ", "x:"]
    let tempos = numbers + ["120", "120-140", "140-80", "60,70,80,90", "1-1000", "120-", ",", "120,,130"]
    let settings = ["sub", "swing", "gap", "count-in", "loop", "step", "to", "", "bogus"]
    return text(&random, lines: 0...6, extra: " # comment") { random in
      let bars = (["1", "2", "8", "0", "1000000"] + numbers).randomElement(using: &random) ?? "1"
      var words = [(labels.randomElement(using: &random) ?? "") + bars]
      if Bool.random(using: &random) { words.append(meters.randomElement(using: &random) ?? "4/4") }
      words.append(tempos.randomElement(using: &random) ?? "120")
      if Bool.random(using: &random) { words.append(patterns.randomElement(using: &random) ?? "Xxxx") }
      if Bool.random(using: &random) { words.append(numbers.randomElement(using: &random) ?? "0.5") }
      // What klick lacks, written after its columns.
      for _ in 0..<Int.random(in: 0...2, using: &random) {
        let name = settings.randomElement(using: &random) ?? "sub"
        words.append(name + "=" + ((numbers + Self.words).randomElement(using: &random) ?? "2"))
      }
      return words.joined(separator: ["\t", " ", "   "].randomElement(using: &random) ?? " ")
    }
  }

  /// A setlist: songs as map files, map lines and tempo lines, then some mutated, truncated,
  /// swapped or replaced by noise.
  static func setlistText(_ random: inout SeededGenerator) -> String {
    let titles = ["", "", "Opener: ", "Take Five:", "Café: ", ": ", "a:b: "]
    return text(&random, lines: 0...5, extra: " # comment") { random in
      let song: String
      switch Int.random(in: 0..<3, using: &random) {
      case 0: song = ["map.txt", "missing.map", "/dev/zero", ".", "./map.txt", "-"].randomElement(using: &random) ?? ""
      case 1: song = mapText(&random).split(whereSeparator: \.isNewline).first.map(String.init) ?? "1 120"
      default:
        song = [
          numbers.randomElement(using: &random) ?? "120", meters.randomElement(using: &random) ?? "",
          patterns.randomElement(using: &random) ?? "",
        ].joined(separator: " ")
      }
      return (titles.randomElement(using: &random) ?? "") + song
    }
  }

  /// A voice folder of one's own as a user might leave it: some numbers and syllables recorded
  /// (a short sound after some silence, at a rate of its own), some missing, some truncated,
  /// empty or not sound at all.
  static func voiceFolder(_ random: inout SeededGenerator, at path: String) {
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for name in (1...16).map(String.init) + ["and", "e", "a", "trip", "let"] {
      let rate = [8_000, 16_000, 44_100, 48_000].randomElement(using: &random) ?? 16_000
      let samples = (0..<Int.random(in: 0...4_000, using: &random)).map { index -> Int16 in
        index < 500 ? 0 : Int16.random(in: -20_000...20_000, using: &random)
      }
      var bytes = WAVFile.bytes(of: samples, rate: rate)
      switch Int.random(in: 0..<8, using: &random) {
      case 0: continue
      case 1: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
      case 2:
        bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
      case 3: bytes[Int.random(in: 0..<44, using: &random)] = UInt8.random(in: 0...255, using: &random)
      default: break
      }
      _ = FileManager.default.createFile(atPath: path + "/\(name).wav", contents: Data(bytes))
    }
  }

  /// A journal of a few takes with their hits, as a run keeps one.
  static let journal: Data = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-fuzz-journal-\(UUID())").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      let journal = try Journal.openForKeeping(path)
      for day in 0..<6 {
        let hits = (0..<50).map { (index: Int) -> TakeHit in
          let offset = Double(index % 9) - 4
          return TakeHit(
            seconds: Double(index) / 2, bar: index / 4 + 1, beat: index % 4 + 1, subdivision: 0, tempo: 120,
            offset: offset, note: 36 + index % 3, velocity: 90)
        }
        try journal.keep(
          Take(
            started: WallTime(seconds: 1_795_000_000 + Double(day) * 86_400, utcOffset: 3_600), seconds: 30,
            tag: day.isMultiple(of: 2) ? "groove" : nil, meters: ["4/4"],
            tempos: Take.Tempos(first: 120, last: 120, lowest: 120, highest: 120), beats: 60, programme: "steady",
            ending: "quit", status: 0, tolerance: 20, hits: hits))
      }
    } catch {
      preconditionFailure("the fuzz test's journal could not be made: \(error)")
    }
    return FileManager.default.contents(atPath: path) ?? Data()
  }()

  /// `journal` as a disk or a hand may leave it at `path`: whole, cut short, its bytes flipped
  /// here and there, a page of noise, or noise alone.
  static func damagedJournal(_ random: inout SeededGenerator, at path: String) {
    var bytes = journal
    switch Int.random(in: 0..<5, using: &random) {
    case 0: break
    case 1: bytes = bytes.prefix(Int.random(in: 0..<bytes.count, using: &random))
    case 2:
      for _ in 0..<Int.random(in: 1...20, using: &random) {
        bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
      }
    case 3:
      let page = Int.random(in: 0..<(bytes.count / 4_096), using: &random) * 4_096
      for index in page..<min(page + 4_096, bytes.count) { bytes[index] = UInt8.random(in: 0...255, using: &random) }
    default:
      bytes = Data(
        (0..<Int.random(in: 0...8_192, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
    }
    _ = FileManager.default.createFile(atPath: path, contents: bytes)
  }

  /// An argument list: a mode that ends by itself, then tokens from every pool in any order.
  static func arguments(_ random: inout SeededGenerator, folder: String) -> (arguments: [String], input: String) {
    var arguments: [String] = []
    var input = ""
    switch Int.random(in: 0..<10, using: &random) {
    case 0...5:
      arguments = [
        "--virtual", ["--beats", "--bars", "--duration"].randomElement(using: &random) ?? "--beats",
        ["1", "2", "8", "0.5", "3"].randomElement(using: &random) ?? "1",
      ]
      if Bool.random(using: &random) {
        arguments += ["--keys", "-"]
        input = keyScript(&random)
      }
    case 6...7:
      arguments = [
        "export", "--bars", ["1", "2"].randomElement(using: &random) ?? "1", "-o",
        Bool.random(using: &random)
          ? "-"
          : folder + "/take."
            + (["wav", "flac", "ogg", "opus", "mp3", "aiff", "WAV", "xyz"].randomElement(using: &random) ?? "wav"),
      ]
    case 8:
      arguments = ["--silent", "--duration", "0.05"]
    case 9 where Bool.random(using: &random) && Bool.random(using: &random):
      // A setlist naming a map beside it, played in virtual time or exported.
      _ = FileManager.default.createFile(atPath: folder + "/map.txt", contents: Data(mapText(&random).utf8))
      _ = FileManager.default.createFile(atPath: folder + "/set.txt", contents: Data(setlistText(&random).utf8))
      arguments =
        (Bool.random(using: &random) ? ["--virtual"] : ["export", "-o", folder + "/set.wav"]) + [
          "--setlist", "set.txt",
        ]
    case 9 where Bool.random(using: &random):
      // A map, from standard input or a file, played in virtual time or exported.
      input = mapText(&random)
      let fromFile = Bool.random(using: &random)
      if fromFile {
        _ = FileManager.default.createFile(atPath: folder + "/map.txt", contents: Data(input.utf8))
        input = ""
      }
      arguments =
        (Bool.random(using: &random) ? ["--virtual"] : ["export", "-o", folder + "/map.wav"])
        + ["--map", fromFile ? "map.txt" : "-"]
    case 9 where Bool.random(using: &random):
      // A journal as a disk or a hand may leave it, read by `metronome journal` or kept in by a live run.
      damagedJournal(&random, at: folder + "/journal.sqlite3")
      arguments =
        Bool.random(using: &random)
        ? ["journal", "--journal", "journal.sqlite3"]
        : ["--silent", "--duration", "0.05", "--journal", "journal.sqlite3"]
    case 9 where Bool.random(using: &random):
      // klick's command line, exporting two bars, or, with a map, the map; or live, through a JACK
      // server that is not there.
      arguments = ["klick"] + (Bool.random(using: &random) ? ["-W", folder + "/klick.wav", "2"] : [])
    default:
      break
    }
    for _ in 0..<Int.random(in: 0...4, using: &random) {
      switch Int.random(in: 0..<7, using: &random) {
      case 6:
        voiceFolder(&random, at: folder + "/voice")
        arguments += ["--voice-dir", folder + "/voice"]
      case 0: arguments.append(meters.randomElement(using: &random) ?? "4/4")
      case 1: arguments.append(numbers.randomElement(using: &random) ?? "120")
      case 2:
        arguments.append(options.randomElement(using: &random) ?? "--beats")
        arguments.append((numbers + words + patterns).randomElement(using: &random) ?? "1")
      case 4: arguments.append(patterns.randomElement(using: &random) ?? "Xxxx")
      case 3: arguments.append(flags.randomElement(using: &random) ?? "--virtual")
      default:
        arguments.insert(
          numbers.randomElement(using: &random) ?? "1", at: Int.random(in: 0...arguments.count, using: &random))
      }
    }
    // FLAC and Ogg Vorbis have no size bound and encode an hour in seconds, not a fraction of
    // one: a valid export of many hours would outlast the run's time limit without anything being
    // wrong. The last --bars given wins, so such an export stays short.
    if arguments.first == "export", arguments.contains(where: { $0.hasSuffix(".flac") || $0.hasSuffix(".ogg") }) {
      arguments += ["--bars", "1"]
    }
    // Likewise a silent run paced by the clock plays in real time: one the tokens left without
    // an end (or with a long one) would run into the time limit.
    if arguments.contains("--silent"), !arguments.contains("--virtual"), arguments.first != "export" {
      arguments += ["--duration", "0.05"]
    }
    return (arguments, input)
  }

  @Test func theParsersNeverTrapOnGeneratedInput() {
    var random = SeededGenerator(seed: Self.seed)
    for _ in 0..<20_000 {
      let script = Self.keyScript(&random)
      if let parsed = try? KeyScript(parsing: script) {
        #expect(
          parsed.presses.allSatisfy { $0.seconds >= 0 && $0.seconds <= PlayLength.longestSeconds }, "seed \(Self.seed)")
      }
      _ = try? Meter(
        parsing: Self.meters.randomElement(using: &random) ?? "",
        cap: NumeratorCap(atLeast: Int.random(in: -5...100, using: &random)))
      let bytes = (0..<Int.random(in: 0...16, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
      _ = KeyDecoder().decode(bytes)
      let pattern = Self.patterns.randomElement(using: &random) ?? ""
      _ = try? AccentPattern(parsing: pattern)
      _ = try? AccentPattern(grouping: pattern)
      if let parsed = try? AccentPattern(parsing: pattern) {
        _ = parsed.cyclingLevel(ofBeat: Int.random(in: 1...NumeratorCap.ceiling, using: &random))
      }
      // The values options read through the core's parsers: what they take reads back the same.
      let value = (Self.words + Self.patterns + Self.numbers).randomElement(using: &random) ?? ""
      if let grouping = try? AccentGrouping(parsing: value) {
        #expect((try? AccentGrouping(parsing: grouping.description)) == grouping, "seed \(Self.seed)")
        let meter = try? Meter(parsing: Self.meters.randomElement(using: &random) ?? "", cap: .widest)
        if let meter, let made = try? grouping.pattern(in: meter) { #expect(made.fits(meter), "seed \(Self.seed)") }
      }
      if let step = try? TempoStep(parsing: value) {
        switch step.length {
        case .bars(let bars): #expect((1...TempoMapParser.maximumBars).contains(bars), "seed \(Self.seed)")
        case .seconds(let seconds): #expect(seconds > 0 && seconds.isFinite, "seed \(Self.seed)")
        }
      }
      if let bars = try? ClosedRange(bars: value) { #expect(bars.lowerBound >= 1, "seed \(Self.seed)") }
      _ = try? CountIn(parsing: value)
      _ = try? HitFilter.notes(parsing: value)
      if let number = Double(Self.numbers.randomElement(using: &random) ?? "") {
        _ = try? Subdivision(
          Int(clamping: Int64(exactly: number.rounded()) ?? 0), swing: Subdivision.swing(percent: number))
        _ = Subdivision.none.counting(Int.random(in: -100...100, using: &random)).swung(number)
      }
      if let bpm = Double(Self.numbers.randomElement(using: &random) ?? "") {
        _ = Tempo.format(bpm)
        _ = Tempo(clamping: bpm)
      }
    }
    for _ in 0..<2_000 {
      let maps = Self.mapText(&random)
      let setlist = try? SetlistParser.parse(Self.setlistText(&random), source: "fuzz", seed: 1) {
        _, _, _ throws(TempoMapError) in
        try TempoMapParser.parse(maps, source: "map")
      }
      #expect(setlist.map { !$0.songs.isEmpty } ?? true, "seed \(Self.seed)")
    }
    for _ in 0..<5_000 {
      guard let map = try? TempoMapParser.parse(Self.mapText(&random), source: "fuzz", seed: random.next()) else {
        continue
      }
      #expect(map.duration > 0 && map.duration <= PlayLength.longestSeconds, "seed \(Self.seed)")
      let beats = min(map.beatCount ?? 64, 64)
      let times = (0...beats).map { map.seconds(toBeat: $0) }
      #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "seed \(Self.seed)")
    }
  }

  /// MIDI as a kit or a faulty cable sends it (any bytes, any frame, any note list) into the
  /// filter and the matcher, among clicks at any spacing: every hit is decided once, and a scored
  /// one is matched to a click that was heard, no farther than the clicks around it are apart.
  @Test func theListeningNeverTrapsAndDecidesEveryHitOnce() {
    var random = SeededGenerator(seed: Self.seed)
    for _ in 0..<2_000 {
      let list = Bool.random(using: &random) ? nil : (Self.words + Self.numbers).randomElement(using: &random)
      let filter =
        (try? HitFilter(
          notes: list.map { try HitFilter.notes(parsing: $0) },
          minimumVelocity: Int.random(in: -1...130, using: &random)))
        ?? HitFilter()
      var matcher = HitMatcher()
      var clicks: [Beat] = []
      var frame = Int64.random(in: -1_000...1_000, using: &random)
      var played = 0
      var outcomes: [HitMatcher.Outcome] = []
      for _ in 0..<Int.random(in: 0...64, using: &random) {
        if Bool.random(using: &random) {
          frame += Int64.random(in: 1...200_000, using: &random)
          let click = Beat(
            count: clicks.count, bar: 1, beatInBar: 1, meter: .fourFour, tempo: .standard, frame: frame,
            sampleRate: .standard, subdivision: Int.random(in: 0...2, using: &random),
            isCountIn: Int.random(in: 0..<8, using: &random) == 0)
          clicks.append(click)
          outcomes += matcher.heard(click)
        } else {
          let bytes = (0..<3).map { _ in UInt8.random(in: 0...255, using: &random) }
          let at = frame + Int64.random(in: -300_000...300_000, using: &random)
          if let hit = filter.hit(status: bytes[0], bytes[1], bytes[2], atFrame: at) {
            played += 1
            outcomes += matcher.played(hit)
          }
        }
      }
      outcomes += matcher.finish()
      #expect(outcomes.count == played, "seed \(Self.seed)")
      let spacing = zip(clicks, clicks.dropFirst()).map { $1.frame - $0.frame }.max() ?? 0
      for case .scored(let scored) in outcomes {
        #expect(clicks.contains(scored.click) && abs(scored.offsetFrames) <= spacing, "seed \(Self.seed)")
      }
    }
  }

  /// A saved calibration as a hand or a disk may leave it: a file that reads is one that says an
  /// offset within a second for each source, with a day of ten characters or none, and writes
  /// back as it read.
  @Test func theCalibrationFileNeverTrapsAndReadsBackAsWritten() throws {
    var random = SeededGenerator(seed: Self.seed)
    for _ in 0..<5_000 {
      let text = Self.text(&random, lines: 0...4, extra: " 3") { random in
        "\(["midi", "keys", "pedal", ""].randomElement(using: &random) ?? "midi")"
          + "\([" ", "\t", "  ", ""].randomElement(using: &random) ?? " ")"
          + "\(Self.numbers.randomElement(using: &random) ?? "0")"
          + "\(["", " 2026-11-25", " 2026-1-25", " 2026-11-25-", " ２026-11-25", " 2026/11/25"].randomElement(using: &random) ?? "")"
      }
      guard let file = try? CalibrationFile(parsing: text, source: "fuzz") else { continue }
      #expect(file.offsets.values.allSatisfy { abs($0) <= 1_000 }, "seed \(Self.seed)")
      #expect(file.days.values.allSatisfy { $0.utf8.count == 10 }, "seed \(Self.seed)")
      let again = try CalibrationFile(parsing: file.text, source: "fuzz")
      #expect(again.offsets.keys == file.offsets.keys && again.days == file.days, "seed \(Self.seed)")
      #expect(
        zip(
          again.offsets.sorted { $0.key.rawValue < $1.key.rawValue },
          file.offsets.sorted { $0.key.rawValue < $1.key.rawValue }
        )
        .allSatisfy { abs($0.value - $1.value) <= 0.0005 }, "seed \(Self.seed)")
    }
  }

  @Test func theBinaryNeverCrashesAndAlwaysSaysWhatWasWrong() async throws {
    // Two workers side by side: each run mostly waits on a process starting, and Swift Testing's
    // tests run one at a time, so the second processor would otherwise idle through it.
    async let first = onAThreadOfItsOwn { try Self.runTheBinary(worker: 0) }
    async let second = onAThreadOfItsOwn { try Self.runTheBinary(worker: 1) }
    let failures = try await first + second
    #expect(
      failures.isEmpty, "seed \(Self.seed) (METRONOME_FUZZ_SEED replays it):\n\(failures.joined(separator: "\n"))")
  }

  /// Runs the binary as it ships on generated arguments, every second of the `binaryRuns` runs
  /// from `worker` (0 or 1) on, each worker in a folder and from a generator of its own, so that a
  /// seed replays each worker's runs alike whichever ends first; returns what went wrong, up to
  /// five runs' worth.
  private static func runTheBinary(worker: Int) throws -> [String] {
    let binary = try MetronomeProcess.shipped()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-fuzz-\(UUID())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var random = SeededGenerator(seed: Self.seed &+ UInt64(worker) << 40)
    var failures: [String] = []
    for run in stride(from: worker, to: Self.binaryRuns, by: 2) where failures.count < 5 {
      let (arguments, input) = Self.arguments(&random, folder: folder)
      let result = try ChildProcess.run(
        URL(fileURLWithPath: "/usr/bin/timeout"), ["-s", "KILL", "20", binary.path] + arguments,
        input: input, environment: ["HOME": folder], directory: URL(fileURLWithPath: folder))
      let errorLines = result.standardError.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
      let problem: String?
      if result.signaled {
        problem = "killed by signal \(result.status)"
      } else if ![0, 1, 64, 65, 66, 130, 143].contains(result.status) {
        problem = "exit status \(result.status)"
      } else if [65, 66].contains(result.status) {
        let mapErrors = result.standardError.split(separator: "\n").filter { $0.contains(": error: ") }
        problem = mapErrors.count == 1 && errorLines.isEmpty ? nil : "not one 'FILE: error:' line"
      } else if result.status != 0, result.status < 128, errorLines.count != 1 {
        problem = "\(errorLines.count) 'Error:' lines"
      } else {
        problem = nil
      }
      if let problem {
        failures.append(
          "run \(run): \(problem) for \(arguments) with input \(input.debugDescription): \(result.standardError)")
      }
    }
    return failures
  }
}
