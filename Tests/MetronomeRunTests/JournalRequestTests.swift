import Foundation
import Glibc
import MetronomeEngine
import MetronomeRun
import PracticeJournal
import TerminalUI
import Testing

/// The journal's rules, on the requests, no process: where a run is kept and under which tag,
/// and what `metronome journal`'s options ask for together.
@Suite(.timeLimit(.minutes(1)))
struct JournalRequestTests {
  /// 2026-11-27 at noon, UTC.
  private let today = WallTime(seconds: 1_795_780_800, utcOffset: 0)

  /// The request `metronome journal ARGUMENTS` makes.
  private func journal(_ arguments: String...) throws -> JournalRequest {
    try JournalRequest(JournalCommandOptions.parse(["--journal", "/tmp/j.sqlite3"] + arguments), today: today)
  }

  /// The usage error `metronome journal ARGUMENTS` gives, or nil when it is accepted.
  private func usageError(_ arguments: String...) -> String? {
    usageMessage {
      try JournalRequest(JournalCommandOptions.parse(["--journal", "/tmp/j.sqlite3"] + arguments), today: today)
    }
  }

  /// Where `metronome ARGUMENTS` is kept, `virtual` or not.
  private func kept(_ arguments: [String], virtual: Bool = false) throws -> JournalKeeping? {
    let file = arguments.contains("--journal") ? ["--journal", "/tmp/mine.sqlite3"] : []
    return try JournalKeeping.make(
      JournalOptions.parse(arguments.filter { $0 != "--journal" }), JournalFileOption.parse(file), virtual: virtual)
  }

  /// Where a run is kept: `--journal`, or the standard place; under `--tag`; nowhere for a
  /// virtual run or `--no-journal`, each of which refuses the others.
  @Test func aRunIsKeptWhereAndUnderWhatItAsks() throws {
    let mine = try kept(["--journal", "--tag", "Take Five"])
    #expect(mine?.path == "/tmp/mine.sqlite3" && mine?.tag == "Take Five")
    #expect(throws: RunError.usage("a --virtual run is not kept in the journal: drop --journal and --tag")) {
      try kept(["--journal", "--tag", "x"], virtual: true)
    }
    #expect(throws: RunError.usage("a --virtual run is not kept in the journal: drop --tag")) {
      try kept(["--tag", "x"], virtual: true)
    }
    #expect(throws: RunError.usage("--no-journal keeps nothing: drop --journal")) {
      try kept(["--journal", "--no-journal"])
    }
    #expect(try kept([], virtual: true) == nil)
    #expect(try kept(["--no-journal"]) == nil)
    let standard = try kept([])
    #expect(standard?.path.hasSuffix("/metronome/journal.sqlite3") == true && standard?.tag == nil)
    // Without a home, a run is kept nowhere, and asked for a tag it says why.
    let homeless = { (arguments: [String]) in
      try JournalKeeping.make(
        JournalOptions.parse(arguments), JournalFileOption.parse([]), virtual: false, environment: { _ in nil })
    }
    #expect(try homeless([]) == nil)
    #expect(
      throws: RunError.usage("no HOME to keep the journal in: set HOME or XDG_STATE_HOME, or give --journal FILE")
    ) {
      try homeless(["--tag", "x"])
    }
    // XDG_STATE_HOME where it is set and not empty, else HOME's .local/state.
    let at = { (variables: [String: String]) in
      try JournalKeeping.make(
        JournalOptions.parse([]), JournalFileOption.parse([]), virtual: false, environment: { variables[$0] })?.path
    }
    #expect(try at(["HOME": "/home/p", "XDG_STATE_HOME": ""]) == "/home/p/.local/state/metronome/journal.sqlite3")
    #expect(try at(["HOME": "/home/p", "XDG_STATE_HOME": "/state"]) == "/state/metronome/journal.sqlite3")
  }

  /// A run's programme in a few words, as the journal keeps it.
  @Test func theProgrammeIsSaidInAFewWords() throws {
    let words = { (line: PlayLine) throws -> String in try line.request().music.programme.words }
    #expect(try words(PlayLine.none) == "steady")
    #expect(
      try words(
        options {
          $0.options.programme.map = "song.map"
          $0.options.programme.startLabel = "verse"
          $0.options.programme.loopBars = 9...16
        }) == "map song.map from verse, loop bars 9-16")
    #expect(try words(options { $0.options.programme.setlist = "gig.txt" }) == "setlist gig.txt")
    #expect(try words(options { $0.words.words = ["80-120/10"] }) == "trainer 80-120/10")
    // One read from a command line, as the binary reads it: the gap's seed is given there.
    #expect(
      try words(parsed("100", "--step", "5/4", "--to", "120", "--loop", "--gap", "3:1"))
        == "step 5/4 to 120, looping, gap 3:1")
    #expect(try words(options { $0.options.programme.multiplier = 0.8 }) == "multiplier 0.8")
    #expect(try words(options { $0.options.programme.multiplier = 1 }) == "steady")
  }

  /// A tag is a name: 1 to 60 characters, none of them a control character.
  @Test func aTagIsAName() throws {
    for tag in ["", String(repeating: "x", count: 61), "tab\there", "bell\u{7}"] {
      #expect(
        throws: RunError.usage("--tag names the take: 1 to 60 characters and no control characters, such as groove-2")
      ) { try kept(["--tag", tag]) }
    }
    for tag in ["x", String(repeating: "é", count: 60), "Take Five (5/4)"] {
      #expect(try kept(["--tag", tag])?.tag == tag)
    }
  }

  /// Days: a date, today or yesterday; from days or weeks back, or a date on.
  @Test func daysAreDatesTodayYesterdayOrSoManyBack() throws {
    #expect(try journal("--day", "today").filter.day == "2026-11-27")
    #expect(try journal("--day", "yesterday").filter.day == "2026-11-26")
    #expect(try journal("--day", "2026-02-03").filter.day == "2026-02-03")
    #expect(try journal("--since", "7d").filter.since == "2026-11-20")
    #expect(try journal("--since", "0d").filter.since == "2026-11-27")
    #expect(try journal("--since", "4w").filter.since == "2026-10-30")
    #expect(
      try journal("--since", "2026-11-01", "--tag", "groove", "--last", "3").filter
        == JournalFilter(tag: "groove", since: "2026-11-01", last: 3))
    #expect(try journal("--day", "2026-01-01").filter.day == "2026-01-01")
    #expect(try journal("--day", "2026-12-31").filter.day == "2026-12-31")
    #expect(try journal("--since", "36500d").filter.since == "1926-12-22")
    for day in [
      "2026-13-01", "2026-11-32", "2026-00-10", "2026-11-00", "26-11-01", "2026/11/01", "tomorrow", "٢٠٢٦-١١-٠١",
      "year-11-27",
    ] {
      #expect(usageError("--day", day) == "'\(day)' is not a day: write 2026-11-27, today or yesterday")
    }
    for since in ["3x", "-1d", "d", "36501d"] {
      #expect(
        usageError("--since=\(since)") == "'\(since)' is not a day: write 2026-11-01, or the last days as 7d or 4w")
    }
    #expect(usageError("--last", "0") == "--last counts takes: 1 or more, such as --last 10")
    #expect(try journal("--last", "1").filter.last == 1)
  }

  /// Shown unless a file is asked for; a report's format from its name, an export NDJSON only.
  @Test func theTakesAreShownOrWrittenWhereAsked() throws {
    #expect(try journal().action == .show)
    guard case .write(let report?, nil) = try journal("--report", "/tmp/trend.HTML").action else {
      Issue.record("not a report")
      return
    }
    #expect(report.format == .html && report.destination == .replacing(path: "/tmp/trend.HTML"))
    guard case .write(nil, .replacing("/tmp/takes.ndjson")?) = try journal("--export", "/tmp/takes.ndjson").action
    else {
      Issue.record("not an export")
      return
    }
    #expect(
      usageError("--report", "/tmp/trend.pdf")
        == "--report writes .html, .svg or .csv: '/tmp/trend.pdf' ends in none of them")
    #expect(usageError("--export", "/tmp/takes.json") == "--export writes .ndjson: '/tmp/takes.json' ends otherwise")
    #expect(usageError("--report", "-") == "--report writes .html, .svg or .csv: '-' ends in none of them")
    #expect(usageError("--export", "/tmp") == "--export writes .ndjson: '/tmp' ends otherwise")
    #expect(
      usageError("--report", "/no/such/folder/t.csv")
        == "--report: cannot write in '/no/such/folder/': No such file or directory")
  }

  /// Forgetting needs the takes named, or all of them, and nothing written beside it.
  @Test func forgettingNeedsTheTakesNamed() throws {
    #expect(try journal("--forget", "--tag", "groove").action == .forget)
    #expect(try journal("--forget", "--last", "1").action == .forget)
    #expect(try journal("--forget", "--all").filter == JournalFilter())
    #expect(
      usageError("--forget")
        == "--forget needs the takes to forget: --tag NAME, --since DAY, --day DAY, --last N or --all")
    #expect(usageError("--all") == "--all is for --forget: without it every take is shown anyway")
    #expect(
      usageError("--forget", "--all", "--tag", "x")
        == "--all forgets every take: drop --tag, --since, --day and --last, or drop --all")
    #expect(
      usageError("--forget", "--tag", "x", "--report", "/tmp/x.html")
        == "--forget takes the takes away: export them first, then forget them")
  }

  /// What `metronome journal ARGUMENTS` does with the journal at `path`: what it printed on
  /// standard output and as notes, or the error it ended with.
  private func run(_ path: String, _ arguments: String...) throws -> (output: String, notes: String, error: RunError?) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-run-\(UUID())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (output, notes) = (
      open(folder + "/out", O_WRONLY | O_CREAT, 0o600), open(folder + "/notes", O_WRONLY | O_CREAT, 0o600)
    )
    var failure: RunError?
    do {
      try JournalRequest(JournalCommandOptions.parse(["--journal", path] + arguments), today: today)
        .run(standardOutput: TextOutput(descriptor: output), notes: TextOutput(descriptor: notes))
    } catch let error as RunError {
      failure = error
    }
    close(output)
    close(notes)
    let read = { (name: String) in (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? "" }
    return (read("out"), read("notes"), failure)
  }

  /// The takes shown, written, forgotten; a journal missing or not a journal said in one line.
  @Test func theJournalIsShownWrittenAndForgotten() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-runs-\(UUID())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/journal.sqlite3"
    let missing = try run(path)
    #expect(
      missing.output == "no takes kept yet in \(path): live runs keep them as they end (--journal FILE for another)\n")
    #expect(
      try run(path, "--report", folder + "/t.html").error
        == .runtime(
          "no takes kept yet in \(path): live runs keep them as they end (--journal FILE for another)"))
    let journal = try Journal.openForKeeping(path)
    for (hour, tag) in [(9, "groove"), (10, "rudiments")] {
      try journal.keep(
        Take(
          started: WallTime(seconds: 1_795_766_400 + Double(hour) * 3_600, utcOffset: 0), seconds: 60, tag: tag,
          meters: ["4/4"], tempos: nil, beats: 0, programme: "steady", ending: "quit", status: 0, tolerance: 20,
          hits: [TakeHit(seconds: 1, bar: 1, beat: 3, subdivision: 0, tempo: 120, offset: -4.5, note: 38, velocity: 99)]
        ))
    }
    let shown = try run(path)
    #expect(
      shown.output.hasPrefix("day         time   tag        min  meter  tempo  hits  mean  median  dev  within\n"))
    #expect(shown.output.contains("\ngroove: 1 day, 1.0 min\n") && shown.error == nil)
    #expect(try run(path, "--tag", "none").output == "no takes of those asked for in \(path)\n")
    let written = try run(path, "--report", folder + "/t.csv", "--export", folder + "/t.ndjson")
    #expect(
      written.notes
        == "metronome: wrote \(folder)/t.csv: 2 takes\nmetronome: wrote \(folder)/t.ndjson: 2 takes with every hit\n")
    let exported = try String(contentsOfFile: folder + "/t.ndjson", encoding: .utf8).split(separator: "\n")
    #expect(exported.count == 2)
    #expect(exported.allSatisfy { $0.contains("\"hits\":[{\"time\":1.000,\"bar\":1,\"beat\":3,\"sub\":0,") })
    #expect(try run(path, "--forget", "--tag", "groove").notes == "metronome: forgot 1 take from \(path)\n")
    #expect(try journal.takes().map(\.take.tag) == ["rudiments"])
    try Data("not a journal".utf8).write(to: URL(fileURLWithPath: folder + "/text"))
    #expect(
      try run(folder + "/text").error
        == RunError(
          .data,
          "\(folder)/text: error: not a metronome journal, or damaged past reading: it is left as it is; move it"
            + " aside, or give another with --journal FILE"))
  }
}
