import Foundation
import MetronomeTesting
import PracticeJournal
import TerminalUI
import XCTest

/// Keeps `--help`, the man page, the display's keys and the README's examples from drifting apart.
final class DocumentationTests: FolderTestCase {
  private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  private var manPage: URL { root.appendingPathComponent("man/metronome.1") }
  /// Every man page: the command's and its files'.
  private var manPages: [URL] { ["man/metronome.1", "man/metronome.5"].map { root.appendingPathComponent($0) } }

  /// The man page as a reader sees it, rendered by mandoc.
  private func renderedManPage() throws -> String {
    let mandoc = try XCTUnwrap(ChildProcess.which("mandoc"), "scripts/setup installs mandoc")
    let rendered = try ChildProcess.run(mandoc, ["-T", "utf8", "-O", "width=200", manPage.path])
    XCTAssertEqual(rendered.status, 0, rendered.standardError)
    // Drop the overstrike that marks bold and underlined text.
    return rendered.standardOutput.replacingOccurrences(of: ".\u{08}", with: "", options: .regularExpression)
  }

  private func help(_ arguments: [String]) throws -> String {
    let run = try MetronomeProcess.run(arguments)
    XCTAssertEqual(run.status, 0, run.standardError)
    return run.standardOutput
  }

  private func options(in text: String) -> Set<String> {
    let pattern = try! NSRegularExpression(pattern: "(?<![\\w-])--[a-z][a-z-]+")
    let range = NSRange(text.startIndex..., in: text)
    return Set(pattern.matches(in: text, range: range).map { String(text[Range($0.range, in: text)!]) })
  }

  /// The journal's schema as metronome(5) describes it: each table, and each column on an item
  /// line of its table's part, alone or in a list; the file's mark and version.
  func testTheJournalsSchemaIsDescribedColumnByColumn() throws {
    let manual = try String(contentsOf: root.appendingPathComponent("man/metronome.5"), encoding: .utf8)
    let section = try XCTUnwrap(manual.components(separatedBy: ".Sh THE JOURNAL").dropFirst().first)
      .components(separatedBy: ".Sh EXAMPLES")[0]
    let path = folder.appendingPathComponent("journal.sqlite3").path
    _ = try Journal.openForKeeping(path)
    let database = try SQLiteDatabase(path: path, access: .read)
    let tables = try database.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap {
      $0[0].text
    }
    XCTAssertEqual(tables, ["hit", "hit_group", "take"])
    for table in tables {
      let part = try XCTUnwrap(section.components(separatedBy: ".Ss \(table)\n").dropFirst().first, table)
        .components(separatedBy: ".Ss ")[0]
      let described = part.split(separator: "\n").filter { $0.hasPrefix(".It Li ") }.flatMap {
        $0.dropFirst(7).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      }
      for column in try database.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap({ $0[0].text }
      ) {
        XCTAssertTrue(described.contains(column), "\(table).\(column) is not described in metronome(5)")
      }
    }
    XCTAssertTrue(section.contains("\(JournalSchema.applicationID)"))
    XCTAssertTrue(section.contains("\(JournalSchema.version) today"))
  }

  func testManPagesAreCleanUnderMandocLint() throws {
    let mandoc = try XCTUnwrap(ChildProcess.which("mandoc"))
    for page in manPages {
      let lint = try ChildProcess.run(mandoc, ["-T", "lint", "-W", "warning", page.path])
      XCTAssertEqual(lint.status, 0, lint.standardOutput + lint.standardError)
      XCTAssertEqual(lint.standardOutput + lint.standardError, "", page.lastPathComponent)
    }
  }

  /// Each line of the README's examples plays as written: in virtual time for two bars, an
  /// export into a folder of the test's own, with the map and setlist it names there.
  func testTheReadmeExamplesRun() throws {
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try XCTUnwrap(readme.range(of: "## Examples\n\n```sh\n"))
    let end = try XCTUnwrap(readme.range(of: "```", range: section.upperBound..<readme.endIndex))
    let examples = readme[section.upperBound..<end.lowerBound].split(separator: "\n")
      .map { String($0.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces) }
    XCTAssertGreaterThanOrEqual(examples.count, 12)
    try write(klickExampleMap, to: "song.map")
    try write("Opener: song.map\nTake Five: 8 5/4 172 Xx.x.\n", to: "gig.txt")
    for example in examples {
      var words = example.split(separator: " ").map(String.init).dropFirst()
      XCTAssertFalse(words.isEmpty && example != "metronome", example)
      if words.contains("--jack") {
        // No JACK server here: the options are checked, and the missing server is the one error.
        let run = try ChildProcess.run(MetronomeProcess.binary, Array(words) + ["--headless"], directory: folder)
        XCTAssertTrue(run.standardError.hasPrefix("Error: no JACK server to join"), "\(example): \(run.standardError)")
        continue
      } else if words.contains("--big") || words.contains("--plain") {
        // A display needs a terminal: two bars in one of the test's own.
        let command = ([MetronomeProcess.binary.path] + words + ["--bars", "2"]).map { "'\($0)'" }
        let session = try TmuxSession(command: "cd '\(folder.path)' && " + command.joined(separator: " "))
        let outcome = try XCTUnwrap(try session.outcome(seconds: 15), example)
        XCTAssertEqual(outcome.status, 0, example)
        XCTAssertTrue(outcome.terminalRestored, example)
        continue
      } else if words.first != "export" {
        let endsByItself = words.contains("--map") || words.contains("--setlist")
        words.append(contentsOf: ["--virtual", "--events", "ndjson"] + (endsByItself ? [] : ["--bars", "2"]))
        if words.contains("--loop-bars") { words.append(contentsOf: ["--keys", "-"]) }
      }
      let run = try ChildProcess.run(MetronomeProcess.binary, Array(words), input: "30 q\n", directory: folder)
      XCTAssertEqual(run.status, 0, "\(example): \(run.standardError)")
    }
  }

  func testEveryOptionInHelpIsInTheManPage() throws {
    let man = try renderedManPage()
    let helped = options(in: try help(["--help-hidden"])).union(options(in: try help(["export", "--help-hidden"])))
      .union(options(in: try help(["calibrate", "--help-hidden"])))
      .union(options(in: try help(["journal", "--help-hidden"])))
    XCTAssertTrue(helped.isSuperset(of: ["--device", "--virtual", "--keys", "--output", "--format"]), "\(helped)")
    for option in helped.sorted() {
      XCTAssertTrue(man.contains(option), "\(option) is in --help-hidden but not in the man page")
    }
    // ArgumentParser keeps its completion scripts' option out of --help; the man page tells of it.
    for option in options(in: man).subtracting(["--generate-completion-script"]).sorted() {
      XCTAssertTrue(helped.contains(option), "\(option) is in the man page but not in --help-hidden")
    }
  }

  /// `--help` fits a screen where no terminal tells its width: at most 80 lines of at most 80
  /// columns; what it leaves out `--help-hidden` lists, and `--help` says so.
  func testHelpFitsAScreenAndHelpHiddenListsTheRest() throws {
    let help = try self.help(["--help"])
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    XCTAssertLessThanOrEqual(lines.count, 80, help)
    XCTAssertEqual(lines.filter { $0.count > 80 }, [])
    XCTAssertTrue(help.contains("More options: --help-hidden"), help)
    let every = options(in: try self.help(["--help-hidden"]))
    XCTAssertTrue(every.isSuperset(of: options(in: help)), "\(options(in: help).subtracting(every))")
    XCTAssertTrue(every.isSuperset(of: ["--period", "--osc-host", "--seed", "--onset-level", "--input-offset"]))
    XCTAssertFalse(options(in: help).contains("--period"))
  }

  func testEveryKeyOnScreenIsInHelpAndTheManPage() throws {
    let help = try self.help(["--help"])
    let man = try renderedManPage()
    let keysSection = try XCTUnwrap(man.range(of: "KEYS").map { man[$0.upperBound...] }).prefix { _ in true }
    let keys = String(keysSection[..<(keysSection.range(of: "ENVIRONMENT")?.lowerBound ?? keysSection.endIndex)])
    for binding in KeyBindings.all {
      let shown = binding.shownKeys
      XCTAssertTrue(help.contains("\(shown) \(binding.help)"), "'\(shown) \(binding.help)' is not in --help")
      XCTAssertTrue(keys.contains(shown), "keys '\(shown)' are not in the man page's KEYS")
      XCTAssertTrue(keys.contains(binding.help), "'\(binding.help)' is not in the man page's KEYS")
    }
  }

  func testTheReadmeExampleOutputIsWhatTheMetronomePrints() throws {
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let command = "scripts/play 3/4 120 --virtual --bars 2"
    let afterCommand = try XCTUnwrap(readme.range(of: command)).upperBound
    let block = try XCTUnwrap(readme.range(of: "```text\n", range: afterCommand..<readme.endIndex))
    let end = try XCTUnwrap(readme.range(of: "```", range: block.upperBound..<readme.endIndex))
    let run = try MetronomeProcess.run(["3/4", "120", "--virtual", "--bars", "2"])
    XCTAssertEqual(run.standardOutput, String(readme[block.upperBound..<end.lowerBound]))
  }

  func testTheManPageExamplesRun() throws {
    let man = try renderedManPage()
    let examples = man.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { $0.hasPrefix("$ metronome") && $0.contains("--virtual") }
    XCTAssertFalse(examples.isEmpty)
    for example in examples {
      let shell = try ChildProcess.run(
        URL(fileURLWithPath: "/bin/sh"), ["-c", String(example.dropFirst(2))],
        environment: ["PATH": MetronomeProcess.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"])
      XCTAssertEqual(shell.status, 0, "\(example): \(shell.standardError)")
      XCTAssertFalse(shell.standardOutput.isEmpty, example)
    }
  }
}
