import MetronomeCore
import OSCControl

/// klick 0.12.2's command line, read as klick reads it (short options in getopt's way, then
/// `[bars] [meter] tempo[-tempo2/accel] [pattern]`), and said in this metronome's options.
///
/// klick always plays through JACK, connected nowhere unless `-p` or `-P` says, prints nothing
/// per beat, and starts stopped when it takes OSC; `-W` exports instead. Options this metronome
/// has no counterpart for are each one line in `notes`, and the rest plays.
public struct KlickCommandLine: Sendable {
  /// What the command line asks for.
  public enum Command: Sendable, Equatable {
    /// Play live: these options, as `metronome` would take them.
    case play
    /// Write the click track to `path`.
    case export(path: String)
    /// klick's usage.
    case help
    /// klick's version.
    case version
  }

  /// What to do.
  public private(set) var command = Command.play
  /// The meter, tempo and pattern words, as this metronome's command line would give them.
  public private(set) var words = RhythmWords.givenNone
  /// The options, as this metronome's command line would give them.
  public private(set) var options = Self.noOptions
  /// Whether it starts stopped, waiting for `/klick/metro/start`, as klick does with OSC.
  public private(set) var startsStopped = false
  /// One line for each option given that has no counterpart here.
  public private(set) var notes: [String] = []

  /// Every option at its default, read once: each reading checks every group again.
  private static let noOptions = PlayOptions.givenNone

  /// klick's options that take a value, and those that do not.
  private static let valued = Set("fnpoRWrsSvwdclx")
  private static let flags = Set("jPieEtThVL")

  /// Reads `arguments` (without the program's name); throws a usage error for what klick refuses.
  public init(_ arguments: [String]) throws(RunError) {
    options.client.jack = true
    options.client.connect = ["none"]
    options.output.headless = true
    options.output.events = .none
    options.sound.rate = 48_000
    var index = 0
    var autoconnect = false
    var ports: [String] = []
    var interactive = false
    var exportPath: String?
    var emphasis: Character?
    parsing: while index < arguments.count {
      let word = arguments[index]
      guard word.count > 1, word.hasPrefix("-"), word != "--" else {
        if word == "--" { index += 1 }
        break parsing
      }
      var letters = Substring(word.dropFirst())
      while let option = letters.first {
        letters = letters.dropFirst()
        guard Self.valued.contains(option) else {
          guard Self.flags.contains(option) else { throw .usage("klick: invalid option -- '\(option)'") }
          switch option {
          case "j": options.sync.followTransport = true
          case "P": autoconnect = true
          case "i": interactive = true
          case "e": emphasis = "x"
          case "E": emphasis = "X"
          case "t": notes.append("-t: the JACK transport is followed with -j or led with -T; -t alone does nothing")
          case "T": options.sync.timebaseMaster = true
          case "h": command = .help
          case "V": command = .version
          default: notes.append("-L: no verbose log; messages that are not understood are still each one line")
          }
          continue
        }
        let value: String
        if !letters.isEmpty {
          value = String(letters)
          letters = ""
        } else {
          index += 1
          guard index < arguments.count else { throw .usage("klick: option requires an argument -- '\(option)'") }
          value = arguments[index]
        }
        try take(option, value, ports: &ports, exportPath: &exportPath)
      }
      index += 1
    }
    guard command == .play else { return }
    try readMap(Array(arguments[index...]), emphasis: emphasis)
    let (remote, programme) = (options.remote, options.programme)
    if interactive, remote.osc != nil || remote.oscReturn != nil {
      throw .usage("can't enable OSC and terminal control at the same time, sorry")
    }
    if let exportPath {
      guard !interactive, remote.osc == nil, remote.oscReturn == nil else {
        throw .usage("can't export to audio file when using OSC or interactive mode")
      }
      guard programme.map != nil || options.length.bars != nil else {
        throw .usage("need a tempo map to export to audio file: give -f FILE, or the number of bars before the meter")
      }
      command = .export(path: exportPath)
      return
    }
    options.output.headless = !interactive
    options.output.events = interactive ? .text : .none
    options.client.connect = ports.isEmpty ? (autoconnect ? nil : ["none"]) : NameList(names: ports)
    startsStopped = remote.osc != nil || remote.oscReturn != nil
    if !options.sync.followTransport, words.words.isEmpty, programme.map == nil, !interactive,
      !startsStopped
    {
      throw .usage("no tempo specified")
    }
  }

  /// Takes option `-option value`.
  private mutating func take(_ option: Character, _ value: String, ports: inout [String], exportPath: inout String?)
    throws(RunError)
  {
    switch option {
    case "f": options.programme.map = value
    case "n": options.client.clientName = value
    case "p": ports += value.split(separator: ",").map(String.init)
    case "o":
      guard let port = Int(value) else { throw .usage("klick: -o takes a port number, such as 9000") }
      options.remote.osc = port
    case "R":
      guard let endpoint = OSCCodec.endpoint(value) else {
        throw .usage("invalid argument to -R: give a port or osc.udp://HOST:PORT/")
      }
      options.remote.oscReturn = endpoint
    case "W": exportPath = value
    case "r":
      guard let rate = Int(value) else { throw .usage("invalid argument to -r: samplerate") }
      options.sound.rate = rate
    case "s":
      guard let number = Int(value), let built = ClickSound(klickNumber: number) else {
        throw .usage("invalid argument to -s: click sample")
      }
      options.sound.sound = built
      if number == 2 { notes.append("-s 2: no noise click; the pulse plays instead") }
    case "S":
      let files = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard (1...2).contains(files.count) else { throw .usage("invalid argument to -S: sample file names") }
      // One file plays for both levels.
      options.sound.samples = NameList(names: files.count == 1 ? files + files : files)
    case "v":
      let volumes = value.split(separator: ",").map { Double($0) }
      guard let first = volumes.first ?? nil, volumes.count <= 2, volumes.allSatisfy({ $0 != nil }) else {
        throw .usage("invalid argument to -v: volume")
      }
      let volume = min(max(first, 0), 1)
      options.sound.volume = volume
      if volumes.count == 2 || first > 1 {
        notes.append("-v \(value): one volume from 0 to 1 for every click; \(Tempo.format(volume)) plays")
      }
    case "w": notes.append("-w \(value): the clicks' pitch cannot be changed; they play at their own")
    case "d": notes.append("-d \(value): no start delay; it starts at once")
    case "c":
      guard let bars = Int(value), bars >= 0 else { throw .usage("invalid argument to -c: pre-roll") }
      do { options.programme.countIn = try CountIn(parsing: String(bars)) } catch {
        throw .usage("invalid argument to -c: \(error)")
      }
    case "l": options.programme.startLabel = value
    default:
      guard let multiplier = Double(value), multiplier > 0 else {
        throw .usage("invalid argument to -x: tempo multiplier")
      }
      options.programme.multiplier = multiplier
    }
  }

  /// Reads the words after the options as klick's one-line map: `[bars] [meter]
  /// tempo[-tempo2/accel] [pattern]`; `emphasis` (-e, -E) sets every beat's level.
  private mutating func readMap(_ words: [String], emphasis: Character?) throws(RunError) {
    var words = words
    if words.count >= 2, let bars = Int(words[0]) {
      options.length.bars = bars
      words.removeFirst()
    }
    let programme = options.programme
    if programme.map != nil, !words.isEmpty {
      throw .usage("can't use tempo map from file and command line at the same time")
    }
    if options.sync.followTransport, programme.map != nil || !words.isEmpty {
      throw .usage("can't use explicit tempo or tempo map together with -j option")
    }
    self.words.words = words
    guard let emphasis else { return }
    guard programme.map == nil else {
      notes.append("-\(emphasis == "x" ? "e" : "E") with a map: the map's own levels play")
      return
    }
    // The pattern written, or the standard one, with its accents (-e) or its normal beats (-E)
    // changed; silent beats stay silent.
    let isPattern = { (word: String) in word.first.map { AccentLevel(rawValue: $0) != nil } ?? false }
    // The meter, where one is written, is the first word left.
    let meter = words.first.flatMap { try? Meter(parsing: $0, cap: .widest) }
    let written =
      words.first(where: isPattern) ?? "X" + String(repeating: "x", count: (meter ?? .fourFour).numerator - 1)
    do {
      options.rhythm.pattern = try AccentPattern(
        parsing: String(written.map { $0 == "X" || $0 == "x" ? emphasis : $0 }))
    } catch {
      throw .usage("\(error)")
    }
    self.words.words.removeAll(where: isPattern)
  }
}
