import Glibc
import MetronomeEngine
import PracticeJournal
import TerminalUI

/// `metronome journal`, checked: which takes of which journal, and whether they are shown,
/// drawn to a report, exported or forgotten.
public struct JournalRequest: Sendable {
  /// A report to write: where, and in which format.
  public struct Report: Sendable, Equatable {
    /// Where it goes.
    public let destination: ExportDestination
    /// What it is written as.
    public let format: JournalReport.Format
  }

  /// What is done with the takes chosen.
  public enum Action: Sendable, Equatable {
    /// Shown as a table on standard output, with each tag's days.
    case show
    /// Written to files, and what went where said: a report, an export (NDJSON), or both.
    case write(report: Report?, export: ExportDestination?)
    /// Taken out of the journal.
    case forget
  }

  /// The journal's file.
  public let path: String
  /// The takes chosen.
  public let filter: JournalFilter
  /// What is done with them.
  public let action: Action

  /// The request `options` make, on `today` (for `--since 7d`, `--day today`); throws a usage
  /// error for options that do not go together, a day that is none or a file that cannot be written.
  public init(_ options: JournalCommandOptions, today: WallTime = .now()) throws(RunError) {
    guard let path = options.file.journal ?? Journal.standardPath({ getenv($0).map { String(cString: $0) } }) else {
      throw .usage("no HOME to find the journal in: set HOME or XDG_STATE_HOME, or give --journal FILE")
    }
    self.path = path
    if let last = options.last, last < 1 { throw .usage("--last counts takes: 1 or more, such as --last 10") }
    filter = JournalFilter(
      tag: options.tag, since: try options.since.map { since throws(RunError) in try Self.since(since, today: today) },
      day: try options.day.map { day throws(RunError) in try Self.day(day, today: today) }, last: options.last)
    if options.all, !options.forget { throw .usage("--all is for --forget: without it every take is shown anyway") }
    if options.forget {
      if options.report != nil || options.export != nil {
        throw .usage("--forget takes the takes away: export them first, then forget them")
      }
      guard options.all || filter != JournalFilter() else {
        throw .usage("--forget needs the takes to forget: --tag NAME, --since DAY, --day DAY, --last N or --all")
      }
      if options.all, filter != JournalFilter() {
        throw .usage("--all forgets every take: drop --tag, --since, --day and --last, or drop --all")
      }
      action = .forget
      return
    }
    let report = try options.report.map { path throws(RunError) in
      guard let format = JournalReport.Format(path: path) else {
        throw .usage("--report writes .html, .svg or .csv: '\(path)' ends in none of them")
      }
      return Report(destination: try Self.file(path, for: "--report", example: "journal.html"), format: format)
    }
    let export = try options.export.map { path throws(RunError) in
      guard path.lowercased().hasSuffix(".ndjson") else {
        throw .usage("--export writes .ndjson: '\(path)' ends otherwise")
      }
      return try Self.file(path, for: "--export", example: "journal.ndjson")
    }
    action = report == nil && export == nil ? .show : .write(report: report, export: export)
  }

  /// Does what was asked: shows the takes on `standardOutput`, writes the report or the export,
  /// or forgets them, saying on `notes` what went where; throws what stopped it.
  public func run(standardOutput: TextOutput = .standardOutput, notes: TextOutput = .standardError) throws(RunError) {
    let journal: Journal
    do {
      journal = try Journal.open(path, forgetting: action == .forget)
    } catch {
      guard error.problem == .missing else { throw Self.runError(error) }
      let missing = "no takes kept yet in \(path): live runs keep them as they end (--journal FILE for another)"
      guard action == .show else { throw .runtime(missing) }
      standardOutput.write(missing + "\n")
      return
    }
    do {
      switch action {
      case .forget:
        let count = try journal.forget(filter)
        notes.write("metronome: forgot \(count) take\(count == 1 ? "" : "s") from \(path)\n")
      case .show:
        let takes = try journal.takes(filter)
        guard !takes.isEmpty else {
          standardOutput.write("no takes \(filter == JournalFilter() ? "kept yet" : "of those asked for") in \(path)\n")
          return
        }
        let lines = JournalTable.takes(takes) + JournalTable.trends(JournalTrend.of(takes))
        standardOutput.write(lines.joined(separator: "\n") + "\n")
      case .write(let report, let export):
        let takes = try journal.takes(filter, withHits: export != nil)
        guard !takes.isEmpty else { throw RunError.runtime("no takes to write in \(path): nothing was written") }
        let count = "\(takes.count) take\(takes.count == 1 ? "" : "s")"
        if let report {
          if let failure = ReportFile.write(JournalReport.text(of: takes, as: report.format), to: report.destination) {
            throw RunError.runtime(failure)
          }
          notes.write("metronome: wrote \(report.destination.name): \(count)\n")
        }
        if let export {
          if let failure = ReportFile.write(JournalExport.ndjson(takes), to: export) { throw RunError.runtime(failure) }
          notes.write("metronome: wrote \(export.name): \(count) with every hit\n")
        }
      }
    } catch let error as JournalError {
      throw Self.runError(error)
    } catch let error as RunError {
      throw error
    } catch {
      throw .runtime("\(error)")
    }
  }

  /// The journal's error as the run's: a file that is not one it can read is the file's fault
  /// (65), one that cannot be opened is missing input (66), the rest failures (1).
  private static func runError(_ error: JournalError) -> RunError {
    switch error.problem {
    case .notAJournal, .damaged, .newer: RunError(.data, "\(error.path): error: \(error.reason)")
    case .cannotOpen: RunError(.input, "\(error)")
    case .missing, .readOnly, .locked, .failed: .runtime("\(error)")
    }
  }

  /// A file to write, not standard output.
  private static func file(_ path: String, for option: String, example: String) throws(RunError) -> ExportDestination {
    let destination = try ReportFile.destination(path, for: option, example: example)
    if case .standardOutput = destination { throw .usage("\(option) needs a file, such as \(example)") }
    return destination
  }

  /// The day `text` names: `2026-11-27`, `today` or `yesterday`.
  static func day(_ text: String, today: WallTime) throws(RunError) -> String {
    switch text {
    case "today": return today.day
    case "yesterday": return today.day(daysBefore: 1)
    default:
      let fields = text.split(separator: "-", omittingEmptySubsequences: false)
      guard fields.count == 3, fields.map(\.count) == [4, 2, 2], fields.allSatisfy({ $0.allSatisfy(\.isASCII) }),
        let month = Int(fields[1]), let day = Int(fields[2]), Int(fields[0]) != nil, (1...12).contains(month),
        (1...31).contains(day)
      else {
        throw .usage("'\(text)' is not a day: write 2026-11-27, today or yesterday")
      }
      return text
    }
  }

  /// The first day `text` names: a day as `day` reads it, or `7d`, `4w`: so many days or weeks
  /// back from `today`.
  static func since(_ text: String, today: WallTime) throws(RunError) -> String {
    if let unit = text.last, "dw".contains(unit), let count = Int(text.dropLast()), count >= 0, count <= 36_500 {
      return today.day(daysBefore: count * (unit == "w" ? 7 : 1))
    }
    do { return try day(text, today: today) } catch {
      throw .usage("'\(text)' is not a day: write 2026-11-01, or the last days as 7d or 4w")
    }
  }
}
