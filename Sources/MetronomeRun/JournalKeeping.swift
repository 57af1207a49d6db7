import Glibc
import PracticeJournal

/// Where a live run is kept in the journal when it ends, and under which tag: checked from the
/// options.
public struct JournalKeeping: Sendable, Equatable {
  /// The journal's file.
  public let path: String
  /// The exercise or song the take is kept under, if any.
  public let tag: String?

  /// The longest tag.
  public static let longestTag = 60

  /// Where `options` and `file` ask a run to be kept, `variable` reading the environment; throws a usage error for options that do not
  /// go together or a tag that is no name.
  ///
  /// Nil for a virtual run, `--no-journal`, or no home to keep it in (no `HOME`, `XDG_STATE_HOME`
  /// or `--journal`) where no tag was asked for.
  public static func make(
    _ options: JournalOptions, _ file: JournalFileOption, virtual: Bool,
    environment variable: (String) -> String? = { getenv($0).map { String(cString: $0) } }
  ) throws(RunError) -> JournalKeeping? {
    let given = [file.journal.map { _ in "--journal" }, options.tag.map { _ in "--tag" }].compactMap { $0 }
    if options.noJournal, !given.isEmpty {
      throw .usage("--no-journal keeps nothing: drop \(given.joined(separator: " and "))")
    }
    if virtual, !given.isEmpty {
      throw .usage("a --virtual run is not kept in the journal: drop \(given.joined(separator: " and "))")
    }
    if let tag = options.tag,
      tag.isEmpty || tag.count > longestTag
        || tag.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    {
      throw .usage("--tag names the take: 1 to \(longestTag) characters and no control characters, such as groove-2")
    }
    guard !virtual, !options.noJournal else { return nil }
    guard let path = file.journal ?? Journal.standardPath(variable) else {
      guard options.tag == nil else {
        throw .usage("no HOME to keep the journal in: set HOME or XDG_STATE_HOME, or give --journal FILE")
      }
      return nil
    }
    return JournalKeeping(path: path, tag: options.tag)
  }
}
