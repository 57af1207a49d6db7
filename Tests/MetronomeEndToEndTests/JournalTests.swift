import Foundation
import Glibc
import MetronomeTesting
import XCTest

/// The practice journal as a player keeps it: listening takes played through a JACK dummy server
/// by a drummer of known offsets, kept as each run ends however it ends, shown by `metronome
/// journal` as each run's summary said, read by `sqlite3`; a journal that cannot be kept in is
/// one line, and the run plays on.
final class JournalTests: FolderTestCase {
  /// Five takes of each of a test's runs, which a loaded machine may need, fit in it.
  override class var timeLimit: Double { 360 }

  private var journal: String { folder.appendingPathComponent("state/journal.sqlite3").path }

  /// What a listening run printed: its status, its standard error, the hits it printed and their
  /// offsets in frames.
  private typealias Take = (status: Int32, errors: String, hits: Int, offsets: [Int], played: HitPlayer.Played)

  /// A listening run at 240 BPM through a JACK dummy server of its own, kept in the journal
  /// under `tag`, the player hitting the clicks from the third heard at `offsets` (frames);
  /// `interrupt`, where given, is sent once `hitsBeforeSignal` hits were printed.
  private func listeningTake(
    offsets: [Int], tag: String, seconds: Int = 5, interrupt: Int32? = nil, hitsBeforeSignal: Int = 0
  ) throws -> Take? {
    let player = try HitPlayer(in: folder)
    let notes = offsets.enumerated().map {
      HitPlayer.Note(click: $0.offset + 2, offset: $0.element, note: 38, velocity: 100)
    }
    let check = { (take: Take) -> [String] in
      // Killed outright, it says nothing: the status is the signal's number.
      let expected: Int32 = interrupt.map { $0 == SIGKILL ? $0 : 128 + $0 } ?? 0
      var problems: [String] = []
      if take.status != expected { problems.append("status \(take.status): \(take.errors)") }
      if interrupt == nil, take.played.missed != 0 || take.played.sent.count != offsets.count {
        problems.append("the player sent \(take.played.sent.count) and missed \(take.played.missed)")
      }
      if interrupt == nil, take.hits != offsets.count { problems.append("\(take.hits) hits printed: \(take.errors)") }
      // What the journal keeps is checked against what was played, so that a take the harness
      // moved (a cycle the server broke moves the player's notes) is taken again, not kept.
      if interrupt == nil, take.offsets != offsets { problems.append("offsets \(take.offsets), played \(offsets)") }
      return problems
    }
    let before = JournalFiles(of: journal)
    return try retakenWhileTheHarnessGlitches(check: check) { () throws -> (Take, [String]) in
      try before.restore()
      let server = try JACKDummyServer()
      defer { server.stop() }
      let environment = server.environment.merging(["HOME": folder.path]) { $1 }
      let metronome = try BackgroundRun(
        [
          "240", "--jack", "--connect", "system:playback_1", "--listen", "--headless", "--events", "ndjson",
          "--duration", "\(interrupt == nil ? seconds : 60)", "--tag", tag, "--journal", journal,
        ], environment: environment)
      try server.waitForPorts { $0.contains("metronome:hits") }
      let (hits, _) = try player.start(
        notes, clickPort: "metronome:click", hitsPort: "metronome:hits", spacing: 12_000, seconds: seconds,
        environment: environment)
      var printed = ""
      if let interrupt {
        printed = metronome.readOutput { $0.components(separatedBy: "\"hit\":true").count > hitsBeforeSignal }
        kill(metronome.process.processIdentifier, interrupt)
      }
      let finished = metronome.finish()
      printed += String(decoding: finished.output, as: UTF8.self)
      let played = HitPlayer.played(String(decoding: hits.finish().output, as: UTF8.self))
      let offsets = HitPlayer.scoredOffsets(in: printed)
      let take: Take = (
        metronome.process.terminationStatus, finished.errors, printed.components(separatedBy: "\"hit\":true").count - 1,
        offsets, played
      )
      return (take, server.brokenCycles())
    }
  }

  /// Runs `metronome journal ARGUMENTS` on the test's journal.
  private func journalCommand(_ arguments: String...) throws -> ProcessResult {
    try MetronomeProcess.run(["journal", "--journal", journal] + arguments)
  }

  /// The figures of a run's summary line: "listening: 16 hits: mean 2.0 ms, median 2.0 ms,
  /// deviation 0.0 ms (unstable rate 0), 100% within 20.0 ms" → ["16", "2.0", "2.0", "0.0", "100%"].
  private func summaryFigures(_ errors: String) throws -> [String] {
    let line = try XCTUnwrap(errors.split(separator: "\n").first { $0.hasPrefix("metronome: listening: ") }, errors)
    let words = line.split(separator: " ").map(String.init)
    let after = { (word: String) in words.firstIndex(of: word).map { words[$0 + 1] } ?? "?" }
    return [words[2], after("mean"), after("median"), after("deviation"), words.first { $0.hasSuffix("%") } ?? "?"]
  }

  /// Two takes of 12 hits with the drummer 2 ms late, then 5 ms early with a spread: `metronome journal
  /// --tag` shows both with the figures each run's summary said; `sqlite3` reads every hit; the
  /// report is a page with the trend drawn.
  func testTwoTakesAreShownAsTheirSummariesSaidAndSQLiteReadsThem() throws {
    var generator = SeededGenerator(seed: 37)
    let late = Array(repeating: 96, count: 12)
    let early = (0..<12).map { _ in -240 + Int.random(in: -144...144, using: &generator) }
    guard let first = try listeningTake(offsets: late, tag: "groove"),
      let second = try listeningTake(offsets: early, tag: "groove")
    else { return }
    try listeningTake(offsets: [0, 0, 0, 0], tag: "rudiments", seconds: 3).map { XCTAssertEqual($0.hits, 4) }
    let shown = try journalCommand("--tag", "groove")
    XCTAssertEqual(shown.status, 0, shown.standardError)
    let rows = shown.standardOutput.split(separator: "\n").dropFirst().prefix(2).map {
      $0.split(separator: " ").map(String.init)
    }
    XCTAssertEqual(rows.count, 2, shown.standardOutput)
    for (row, take) in zip(rows, [first, second]) {
      XCTAssertEqual(Array(row.suffix(5)), try summaryFigures(take.errors), shown.standardOutput)
      XCTAssertTrue(row.contains("groove") && row.contains("4/4") && row.contains("240"), "\(row)")
    }
    XCTAssertTrue(shown.standardOutput.contains("\ngroove: 1 day, "), shown.standardOutput)
    XCTAssertFalse(shown.standardOutput.contains("rudiments"), shown.standardOutput)
    let sqlite = try XCTUnwrap(ChildProcess.which("sqlite3"), "unreachable: scripts/setup installs sqlite3")
    let read = try ChildProcess.run(
      sqlite,
      [
        journal,
        "PRAGMA integrity_check; SELECT count(*), sum(offset < 0) FROM hit; SELECT tag, ending FROM take ORDER BY id",
      ])
    XCTAssertEqual(
      read.standardOutput,
      "ok\n28|12\ngroove|played to its end\ngroove|played to its end\nrudiments|played to its end\n")
    let page = folder.appendingPathComponent("groove.html")
    let report = try journalCommand("--tag", "groove", "--report", page.path)
    XCTAssertEqual(report.standardError, "metronome: wrote \(page.path): 2 takes\n")
    let html = try String(contentsOf: page, encoding: .utf8)
    XCTAssertTrue(
      html.contains("<h2>groove</h2>") && html.contains("<svg ") && html.contains("Hits within tolerance a day"))
  }

  /// A take ended by SIGTERM or Ctrl-C is kept with the hits heard up to then, ending as it did;
  /// one killed outright may be lost, but the journal stays whole and keeps what it held.
  func testATakeEndedBySignalsIsKeptAndOneKilledLeavesTheJournalWhole() throws {
    // Two hits past the sixth, after which the signal is sent: the take is still being played.
    let offsets = Array(repeating: 48, count: 8)
    guard let terminated = try listeningTake(offsets: offsets, tag: "t", interrupt: SIGTERM, hitsBeforeSignal: 6),
      let interrupted = try listeningTake(offsets: offsets, tag: "i", interrupt: SIGINT, hitsBeforeSignal: 6)
    else { return }
    XCTAssertGreaterThanOrEqual(terminated.hits, 6)
    let sqlite = try XCTUnwrap(ChildProcess.which("sqlite3"), "unreachable: scripts/setup installs sqlite3")
    let kept = try ChildProcess.run(sqlite, [journal, "SELECT tag, ending, status, hits >= 6 FROM take ORDER BY id"])
    XCTAssertEqual(kept.standardOutput, "t|interrupted (SIGTERM)|143|1\ni|interrupted (SIGINT)|130|1\n")
    let hits = try ChildProcess.run(sqlite, [journal, "SELECT hits FROM take ORDER BY id"])
    XCTAssertEqual(hits.standardOutput, "\(terminated.hits)\n\(interrupted.hits)\n")
    _ = try listeningTake(offsets: offsets, tag: "k", interrupt: SIGKILL, hitsBeforeSignal: 6)
    let whole = try ChildProcess.run(sqlite, [journal, "PRAGMA integrity_check; SELECT tag FROM take ORDER BY id"])
    XCTAssertEqual(whole.standardOutput, "ok\nt\ni\n")
  }

  /// A journal that cannot be kept in (a random file, another version's, a folder in its place,
  /// one made read-only) is one line: the run plays to its end and the file is as it was.
  func testAJournalThatCannotBeKeptInIsOneLineAndTheRunPlaysOn() throws {
    let random = folder.appendingPathComponent("random.sqlite3")
    var generator = SeededGenerator(seed: 11)
    try Data((0..<4_096).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: random)
    let newer = folder.appendingPathComponent("newer.sqlite3")
    let sqlite = try XCTUnwrap(ChildProcess.which("sqlite3"), "unreachable: scripts/setup installs sqlite3")
    _ = try ChildProcess.run(
      sqlite, [newer.path, "PRAGMA application_id = 1297370701; PRAGMA user_version = 7; CREATE TABLE take (id)"])
    let folderInPlace = folder.appendingPathComponent("journal-folder")
    try FileManager.default.createDirectory(at: folderInPlace, withIntermediateDirectories: true)
    let readOnly = folder.appendingPathComponent("read-only.sqlite3")
    XCTAssertEqual(try MetronomeProcess.run(["--silent", "--duration", "0.1", "--journal", readOnly.path]).status, 0)
    try makeReadOnly(readOnly.path)
    defer { undoReadOnly(readOnly.path) }
    let cases = [
      (random.path, "not a metronome journal, or damaged past reading"),
      (newer.path, "written by a newer metronome (schema 7, this one knows up to 1)"),
      (folderInPlace.path, "cannot be opened (a folder is there)"),
      (readOnly.path, "read-only: make it writable, or give another with --journal FILE"),
    ]
    for (path, reason) in cases {
      let before = FileManager.default.contents(atPath: path)
      let run = try MetronomeProcess.run([
        "600", "--silent", "--headless", "--beats", "3", "--journal", path, "--tag", "x",
      ])
      XCTAssertEqual(run.status, 0, run.standardError)
      XCTAssertEqual(run.standardOutput.split(separator: "\n").count, 3, run.standardOutput)
      let lines = run.standardError.split(separator: "\n").filter { $0.contains("journal") }
      XCTAssertEqual(lines.count, 1, run.standardError)
      XCTAssertTrue(lines.first?.hasPrefix("metronome: the journal \(path): \(reason)") == true, run.standardError)
      XCTAssertTrue(lines.first?.hasSuffix("; this run is not kept") == true, run.standardError)
      XCTAssertEqual(FileManager.default.contents(atPath: path), before, path)
    }
  }

  /// A journal another run holds locked for two seconds, under the five a run waits, is waited
  /// for: the take is kept and nothing is said of the journal.
  func testAJournalHeldLockedForLessThanFiveSecondsIsWaitedFor() throws {
    let path = folder.appendingPathComponent("held.sqlite3").path
    XCTAssertEqual(try MetronomeProcess.run(["--silent", "--duration", "0.1", "--journal", path]).status, 0)
    let sqlite = try XCTUnwrap(ChildProcess.which("sqlite3"), "unreachable: scripts/setup installs sqlite3")
    // Another run's transaction, holding the journal two seconds from once it is held.
    let holder = try BackgroundRun(
      [path, "BEGIN EXCLUSIVE;", ".shell echo held; sleep 2", "COMMIT;"], executable: sqlite)
    XCTAssertEqual(holder.readFirstLine(), "held\n")
    let run = try MetronomeProcess.run([
      "600", "--silent", "--headless", "--beats", "3", "--journal", path, "--tag", "waited",
    ])
    let held = holder.finish()
    XCTAssertEqual(holder.process.terminationStatus, 0, held.errors)
    XCTAssertEqual(run.status, 0, run.standardError)
    XCTAssertFalse(run.standardError.contains("journal"), run.standardError)
    let kept = try ChildProcess.run(sqlite, [path, "SELECT tag FROM take ORDER BY id"])
    XCTAssertEqual(kept.standardOutput, "\nwaited\n")
  }

  /// Makes `path` read-only, as a user would: its permissions, and (as root, whom permissions do
  /// not stop) the file system's immutable flag.
  private func makeReadOnly(_ path: String) throws {
    XCTAssertEqual(chmod(path, 0o444), 0)
    guard getuid() == 0 else { return }
    let chattr = try XCTUnwrap(
      ChildProcess.which("chattr"), "chattr (e2fsprogs) is needed to make a file read-only for root")
    let made = try ChildProcess.run(chattr, ["+i", path])
    XCTAssertEqual(made.status, 0, "this file system keeps no immutable flag: \(made.standardError)")
  }

  private func undoReadOnly(_ path: String) {
    if getuid() == 0, let chattr = ChildProcess.which("chattr") { _ = try? ChildProcess.run(chattr, ["-i", path]) }
    chmod(path, 0o644)
  }
}
