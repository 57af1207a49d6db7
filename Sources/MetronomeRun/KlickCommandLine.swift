import MetronomeCore

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
  /// The meter, tempo and pattern words, and the pattern -e or -E makes.
  public private(set) var music = RequestOptions.Music()
  /// How long it plays.
  public private(set) var length = RequestOptions.Length()
  /// The sound and the export's rate.
  public private(set) var sound = RequestOptions.Sound()
  /// The programme.
  public private(set) var programme = RequestOptions.Programme()
  /// The JACK client.
  public private(set) var output = RequestOptions.Output()
  /// The transport.
  public private(set) var sync = RequestOptions.Sync()
  /// OSC.
  public private(set) var remote = RequestOptions.Remote()
  /// One line for each option given that has no counterpart here.
  public private(set) var notes: [String] = []

  /// klick's options that take a value, and those that do not.
  private static let valued = Set("fnpoRWrsSvwdclx")
  private static let flags = Set("jPieEtThVL")

  /// Reads `arguments` (without the program's name); throws a usage error for what klick refuses.
  public init(_ arguments: [String]) throws(RunError) {
    output.jack = true
    output.connect = "none"
    output.headless = true
    output.events = .none
    sound.rate = 48_000
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
          case "j": sync.followTransport = true
          case "P": autoconnect = true
          case "i": interactive = true
          case "e": emphasis = "x"
          case "E": emphasis = "X"
          case "t": notes.append("-t: the JACK transport is followed with -j or led with -T; -t alone does nothing")
          case "T": sync.timebaseMaster = true
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
    if interactive, remote.osc != nil || remote.oscReturn != nil {
      throw .usage("can't enable OSC and terminal control at the same time, sorry")
    }
    if let exportPath {
      guard !interactive, remote.osc == nil, remote.oscReturn == nil else {
        throw .usage("can't export to audio file when using OSC or interactive mode")
      }
      guard programme.map != nil || length.bars != nil else {
        throw .usage("need a tempo map to export to audio file: give -f FILE, or the number of bars before the meter")
      }
      command = .export(path: exportPath)
      return
    }
    output.headless = !interactive
    output.events = interactive ? .text : .none
    output.connect = ports.isEmpty ? (autoconnect ? nil : "none") : ports.joined(separator: ",")
    remote.startsStopped = remote.osc != nil || remote.oscReturn != nil
    if !sync.followTransport, music.words.isEmpty, programme.map == nil, !interactive, !remote.startsStopped {
      throw .usage("no tempo specified")
    }
  }

  /// Takes option `-option value`.
  private mutating func take(_ option: Character, _ value: String, ports: inout [String], exportPath: inout String?)
    throws(RunError)
  {
    switch option {
    case "f": programme.map = value
    case "n": output.clientName = value
    case "p": ports += value.split(separator: ",").map(String.init)
    case "o":
      guard let port = Int(value) else { throw .usage("klick: -o takes a port number, such as 9000") }
      remote.osc = port
    case "R": remote.oscReturn = value
    case "W": exportPath = value
    case "r":
      guard let rate = Int(value) else { throw .usage("invalid argument to -r: samplerate") }
      sound.rate = rate
    case "s":
      guard let number = Int(value), let built = ClickSound(klickNumber: number) else {
        throw .usage("invalid argument to -s: click sample")
      }
      sound.sound = built
      if number == 2 { notes.append("-s 2: no noise click; the pulse plays instead") }
    case "S":
      let files = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard (1...2).contains(files.count) else { throw .usage("invalid argument to -S: sample file names") }
      // One file plays for both levels.
      sound.samples = files.count == 1 ? "\(value),\(value)" : value
    case "v":
      let volumes = value.split(separator: ",").map { Double($0) }
      guard let first = volumes.first ?? nil, volumes.count <= 2, volumes.allSatisfy({ $0 != nil }) else {
        throw .usage("invalid argument to -v: volume")
      }
      sound.volume = min(max(first, 0), 1)
      if volumes.count == 2 || first > 1 {
        notes.append("-v \(value): one volume from 0 to 1 for every click; \(Tempo.format(sound.volume)) plays")
      }
    case "w": notes.append("-w \(value): the clicks' pitch cannot be changed; they play at their own")
    case "d": notes.append("-d \(value): no start delay; it starts at once")
    case "c":
      guard let bars = Int(value), bars >= 0 else { throw .usage("invalid argument to -c: pre-roll") }
      programme.countIn = "\(bars)"
    case "l": programme.startLabel = value
    default:
      guard let multiplier = Double(value), multiplier > 0 else {
        throw .usage("invalid argument to -x: tempo multiplier")
      }
      programme.multiplier = multiplier
    }
  }

  /// Reads the words after the options as klick's one-line map: `[bars] [meter]
  /// tempo[-tempo2/accel] [pattern]`; `emphasis` (-e, -E) sets every beat's level.
  private mutating func readMap(_ words: [String], emphasis: Character?) throws(RunError) {
    var words = words
    if words.count >= 2, let bars = Int(words[0]) {
      length.bars = bars
      words.removeFirst()
    }
    if programme.map != nil, !words.isEmpty {
      throw .usage("can't use tempo map from file and command line at the same time")
    }
    if sync.followTransport, programme.map != nil || !words.isEmpty {
      throw .usage("can't use explicit tempo or tempo map together with -j option")
    }
    music.words = words
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
    music.pattern = String(written.map { $0 == "X" || $0 == "x" ? emphasis : $0 })
    music.words.removeAll(where: isPattern)
  }
}
