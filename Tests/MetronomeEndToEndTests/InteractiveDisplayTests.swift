import Foundation
import MetronomeTesting
import XCTest

/// Drives the interactive display in a real pseudo-terminal (tmux): keys in, screen out, and the
/// terminal's settings afterwards equal to those before, however the process ends.
final class InteractiveDisplayTests: TimeLimitedTestCase {
  /// Starts a silent run with the display; without colour unless `environment` says otherwise, so
  /// that the lit beat shows in the text (`>x<`) rather than only in its colour.
  private func start(
    _ arguments: String, width: Int = 80, height: Int = 24, environment: [String: String] = ["NO_COLOR": "1"]
  ) throws -> TmuxSession {
    let session = try TmuxSession(
      command: "'\(MetronomeProcess.binary.path)' --silent \(arguments)", width: width, height: height,
      environment: environment)
    try session.waitForScreen { $0.contains("playing") }
    return session
  }

  /// The cells of the indicator's first line: `[x]` for a beat, `>x<` for the one lit.
  private func cells(_ screen: String) -> [Substring] {
    let isCell = { (cell: Substring) in
      cell.count == 3 && (cell.first == "[" && cell.last == "]" || cell.first == ">" && cell.last == "<")
    }
    let line = screen.split(separator: "\n").first { line in
      let cells = line.split(separator: " ")
      return !cells.isEmpty && cells.allSatisfy(isCell)
    }
    return line?.split(separator: " ") ?? []
  }

  /// The number of the lit beat cell on the indicator line, if one is lit.
  private func litBeat(_ screen: String) -> Int? { cells(screen).firstIndex { $0.first == ">" }.map { $0 + 1 } }

  /// The ticks of the beat's clicks after the position (`·•·`: the second of three heard), if shown.
  private func ticks(_ screen: String) -> Substring? {
    let line = screen.split(separator: "\n").first { $0.hasPrefix(" bar ") }
    let words = line?.split(separator: " ").prefix { $0 != "against" }
    return words?.last.flatMap { word in
      word.allSatisfy { $0 == "•" || $0 == "·" } && word.filter { $0 == "•" }.count == 1 ? word : nil
    }
  }

  /// The level each cell shows, as a pattern writes it.
  private func pattern(_ screen: String) -> String { String(cells(screen).map { $0.dropFirst().first ?? " " }) }

  func testKeysChangeTempoAndMeterAndTheIndicatorFollowsTheBeat() throws {
    let session = try start("4/4 120")
    var screen = try session.waitForScreen {
      $0.contains(" metronome  120 BPM  4/4  playing") && self.litBeat($0) != nil
    }
    XCTAssertTrue(screen.contains("Space play/pause"), screen)
    XCTAssertTrue(screen.contains("silent · latency"), screen)

    let first = litBeat(screen)
    screen = try session.waitForScreen { self.litBeat($0) != nil && self.litBeat($0) != first }
    XCTAssertNotEqual(litBeat(screen), first, "the indicator did not move:\n\(screen)")

    try session.send("Up", "Right")
    screen = try session.waitForScreen { $0.contains("131 BPM") }
    XCTAssertTrue(screen.contains(" metronome  131 BPM  4/4"), screen)

    try session.send("[", "}")
    screen = try session.waitForScreen { $0.contains("3/8") }
    XCTAssertTrue(screen.contains(" metronome  131 BPM  3/8"), screen)
    screen = try session.waitForScreen { $0.contains("of 3") }
    XCTAssertTrue(screen.contains("beat") && screen.contains("of 3"), screen)

    try session.send("Space")
    screen = try session.waitForScreen { $0.contains("paused") }
    XCTAssertTrue(screen.contains("131 BPM  3/8  paused"), screen)
    XCTAssertNil(litBeat(screen))

    try session.send("q")
    let outcome = try XCTUnwrap(try session.outcome())
    XCTAssertEqual(outcome.status, 0)
    XCTAssertTrue(outcome.terminalRestored)
  }

  /// klick's pattern for 6/8 is shown a level per cell, and a number key changes its beat's level
  /// while it plays.
  func testThePatternIsShownAndANumberKeyChangesABeatsLevel() throws {
    let session = try start("6/8 120 X..x..")
    var screen = try session.waitForScreen { self.pattern($0) == "X..x.." && self.litBeat($0) != nil }
    XCTAssertTrue(screen.contains("1…9 beat's level"), screen)

    try session.send("2", "6", "6")
    screen = try session.waitForScreen { self.pattern($0) == "XX.x.x" }
    XCTAssertEqual(pattern(screen), "XX.x.x", screen)

    try session.send("q")
    XCTAssertEqual(try XCTUnwrap(try session.outcome()).status, 0)
  }

  /// The subdivision and the second voice show in the header and as ticks after the position,
  /// and keys change the subdivision, swing it, mute the clicks and the second voice while it plays.
  func testSubdivisionSwingAndMuteChangeByKeysOnScreen() throws {
    let session = try start("4/4 120 --subdivide 3 --poly 3")
    var screen = try session.waitForScreen { $0.contains("×3  3:4  playing") && self.ticks($0)?.count == 3 }
    XCTAssertTrue(screen.contains(" metronome  120 BPM  4/4  ×3  3:4  playing"), screen)
    screen = try session.waitForScreen { $0.contains("against 3: ") && $0.contains("•") }

    try session.send("s", "w", "w")
    screen = try session.waitForScreen { $0.contains("×4 swung 66.67 %") && self.ticks($0)?.count == 4 }
    XCTAssertTrue(screen.contains("×4 swung 66.67 %  3:4  playing"), screen)

    try session.send("m")
    screen = try session.waitForScreen { $0.contains("playing  muted") }
    XCTAssertTrue(screen.contains("playing  muted"), screen)

    try session.send("p")
    screen = try session.waitForScreen { !$0.contains("against 3") }
    XCTAssertFalse(screen.contains("3:4"), screen)

    try session.send("q")
    XCTAssertEqual(try XCTUnwrap(try session.outcome()).status, 0)
  }

  /// From 24/32, lowering the note value shows 16/16, 8/8 and 4/4.
  func testTheClampingScenarioOnScreen() throws {
    let session = try start("24/32 60")
    var seen: [String] = []
    for expected in ["16/16", "8/8", "4/4"] {
      try session.send("{")
      let screen = try session.waitForScreen { $0.contains("60 BPM  \(expected)") }
      XCTAssertTrue(screen.contains("60 BPM  \(expected)"), screen)
      seen.append(expected)
    }
    XCTAssertEqual(seen, ["16/16", "8/8", "4/4"])
    try session.send("Escape")
    XCTAssertEqual(try XCTUnwrap(try session.outcome()).status, 0)
  }

  /// Ctrl-C, SIGTERM and SIGHUP each end the run with 128 and the signal's number, the terminal
  /// as it was found.
  func testCtrlCSIGTERMAndSIGHUPLeaveTheTerminalAsItWas() throws {
    let interrupted = try start("")
    try interrupted.send("C-c")
    let byInterrupt = try XCTUnwrap(try interrupted.outcome())
    XCTAssertEqual(byInterrupt.status, 130)
    XCTAssertTrue(byInterrupt.terminalRestored)

    for (signal, status) in [(SIGTERM, 143), (SIGHUP, 129)] as [(Int32, Int32)] {
      let signalled = try start("")
      let processes = try signalled.commandProcessIDs()
      XCTAssertEqual(processes.count, 1)
      for process in processes { kill(process, signal) }
      let outcome = try XCTUnwrap(try signalled.outcome())
      XCTAssertEqual(outcome.status, status, "signal \(signal)")
      XCTAssertTrue(outcome.terminalRestored, "signal \(signal)")
    }
  }

  /// Ctrl-Z is ignored while the display runs: the run plays on, takes keys, and ends with q.
  ///
  /// A stopped run would leave the terminal raw. It is started as a shell with job control starts
  /// it, in a process group of its own, where Ctrl-Z would stop it.
  func testCtrlZIsIgnoredWhileTheDisplayRuns() throws {
    let session = try TmuxSession(
      command: "set -m; '\(MetronomeProcess.binary.path)' --silent 120", environment: ["NO_COLOR": "1"])
    try session.waitForScreen { $0.contains("playing") }
    try session.send("C-z")
    try session.send("Up")
    let screen = try session.waitForScreen { $0.contains("130 BPM") }
    XCTAssertTrue(screen.contains("130 BPM"), screen)
    try session.send("q")
    let outcome = try XCTUnwrap(try session.outcome(), "the run did not end: it was stopped")
    XCTAssertEqual(outcome.status, 0)
    XCTAssertTrue(outcome.terminalRestored)
  }

  func testFollowsResizesAndFitsNarrowTerminals() throws {
    let session = try start("7/8 200")
    try session.resize(width: 36, height: 20)
    let screen = try session.waitForScreen {
      $0.contains("7/8") && $0.split(separator: "\n").allSatisfy { $0.count <= 36 }
    }
    for line in screen.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, 36, screen) }
    XCTAssertTrue(screen.contains("200 BPM"), screen)
    try session.send("q")
    XCTAssertEqual(try XCTUnwrap(try session.outcome()).status, 0)
  }

  /// In colour unless NO_COLOR is set and not empty (set empty, it is as if not set).
  func testHonoursNoColor() throws {
    let colored = try start("120", environment: ["NO_COLOR": ""])
    // tmux re-encodes what it shows: bold then red is "ESC[1m ESC[31m".
    let redAccent = "\u{1B}[1m\u{1B}[31m[X]"
    let withColor = try colored.waitForScreen(escapes: true) { $0.contains(redAccent) }
    XCTAssertTrue(withColor.contains(redAccent), "the accent was never shown in red")
    try colored.send("q")

    let plain = try start("120", environment: ["NO_COLOR": "1"])
    let withoutColor = try plain.waitForScreen(escapes: true) { $0.contains(">X<") }
    XCTAssertTrue(withoutColor.contains(">X<"), withoutColor)
    XCTAssertFalse(withoutColor.contains("\u{1B}[31m") || withoutColor.contains("\u{1B}[32m"), withoutColor)
    try plain.send("q")
  }

  /// With standard input closed, even on a terminal, the run is headless: it prints and ends.
  func testClosedStandardInputNeverHangs() throws {
    let session = try TmuxSession(command: "'\(MetronomeProcess.binary.path)' --silent --beats 2 < /dev/null")
    let outcome = try XCTUnwrap(try session.outcome())
    XCTAssertEqual(outcome.status, 0)
    XCTAssertTrue(try session.screen().contains("0.500000 bar 1 beat 2 regular"))
  }

  /// The rows of the big display's digits: those with a block in them.
  private func digitRows(_ screen: String) -> [Substring] {
    screen.split(separator: "\n").filter { $0.contains { "█▓▒░".contains($0) } }
  }

  /// `--big` fills an 80 × 24 terminal and, resized, a 200 × 60 one; the digit changes with
  /// each beat; `q` leaves the terminal as it was.
  func testTheBigDisplayFillsTheTerminalAndChangesWithEachBeat() throws {
    let session = try start("--big 4/4 120")
    var screen = try session.waitForScreen { self.digitRows($0).count >= 12 }
    XCTAssertGreaterThanOrEqual(digitRows(screen).count, 12, screen)
    XCTAssertTrue(screen.hasPrefix(" 120 BPM  4/4  playing  bar "), screen)
    let first = digitRows(screen)
    screen = try session.waitForScreen { !self.digitRows($0).isEmpty && self.digitRows($0) != first }
    XCTAssertNotEqual(digitRows(screen), first, "the digit did not change:\n\(screen)")

    try session.resize(width: 200, height: 60)
    screen = try session.waitForScreen { self.digitRows($0).count >= 40 }
    XCTAssertGreaterThanOrEqual(digitRows(screen).count, 40, screen)
    XCTAssertGreaterThanOrEqual(digitRows(screen).map { $0.count }.max() ?? 0, 100, screen)

    try session.send("q")
    let outcome = try XCTUnwrap(try session.outcome())
    XCTAssertEqual(outcome.status, 0)
    XCTAssertTrue(outcome.terminalRestored)
  }

  /// At 240 BPM only bar one lights the whole screen: four flashes in four bars, recorded as the
  /// terminal received them (`script` keeps the stream), where every beat's would be sixteen.
  func testAt240TheBigDisplayFlashesOnlyOnBarOne() throws {
    let typescript = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-big-\(UUID())")
    defer { try? FileManager.default.removeItem(at: typescript) }
    let session = try TmuxSession(
      command:
        "script -q -e -c \"'\(MetronomeProcess.binary.path)' --silent --big 240 --bars 4\" '\(typescript.path)'",
      environment: ["NO_COLOR": "1"])
    let outcome = try XCTUnwrap(try session.outcome(seconds: 15))
    XCTAssertEqual(outcome.status, 0)
    XCTAssertTrue(outcome.terminalRestored)
    let stream = try String(contentsOf: typescript, encoding: .utf8)
    // Lit: the first line redrawn in reverse video; dark again: redrawn without.
    let redrawn = stream.components(separatedBy: "\u{1B}[1;1H").dropFirst()
    let lit = redrawn.map { $0.hasPrefix("\u{1B}[7m") }
    let changes = zip(lit, lit.dropFirst()).filter { $0 != $1 }.count + (lit.first == true ? 1 : 0)
    XCTAssertEqual(lit.filter { $0 }.count, 4, "flashes")
    XCTAssertLessThanOrEqual(changes, 8, "whole-screen changes in 4 s")
  }

  /// `--plain` prints the keys and a line per change, no full screen: its lines stay in the
  /// terminal after the run, and the terminal is as it was.
  func testThePlainDisplayPrintsALinePerChange() throws {
    let session = try start("--plain 4/4 120")
    try session.send("Up")
    var screen = try session.waitForScreen { $0.contains("130 BPM, 4/4, playing") }
    XCTAssertTrue(screen.hasPrefix("keys: Space play/pause"), screen)
    try session.send("Space")
    screen = try session.waitForScreen { $0.contains("130 BPM, 4/4, paused") }
    try session.send("q")
    let outcome = try XCTUnwrap(try session.outcome())
    XCTAssertEqual(outcome.status, 0)
    XCTAssertTrue(outcome.terminalRestored)
    let lines = try session.screen().split(separator: "\n").filter { $0.contains(" BPM, ") }
    XCTAssertEqual(lines, ["120 BPM, 4/4, playing", "130 BPM, 4/4, playing", "130 BPM, 4/4, paused"])
  }

  /// `--big` needs a terminal: piped, it says so and plays nothing.
  func testTheBigDisplayWithoutATerminalIsOneLine() throws {
    let run = try MetronomeProcess.run(["--silent", "--big", "--beats", "2"])
    XCTAssertEqual(run.status, 64)
    XCTAssertTrue(
      run.standardError.hasPrefix("Error: --big shows on a terminal: run it in one, or use --headless to print beats"),
      run.standardError)
    XCTAssertEqual(run.standardOutput, "")
  }
}
