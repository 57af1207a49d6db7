import Foundation
import Mutation

/// The mutants recorded as equivalent: changes no test can notice because the program behaves
/// the same with them, each with why, in a checked-in list the runs honour.
///
/// A line is `MODULE/FILE | DECLARATION | ORIGINAL → MUTATED | WHY`, as a report's survivors are
/// written; `#` starts a comment.
struct Equivalents {
  /// The reasons, by the mutant they are for (`MODULE/` and its key).
  private(set) var reasons: [String: String] = [:]

  /// The list in `file`; empty where there is none.
  init(file: URL) throws {
    guard FileManager.default.fileExists(atPath: file.path) else { return }
    for (number, line) in try String(contentsOf: file, encoding: .utf8).split(separator: "\n").enumerated() {
      let text = line.trimmingCharacters(in: .whitespaces)
      guard !text.isEmpty, !text.hasPrefix("#") else { continue }
      let fields = text.components(separatedBy: " | ")
      guard fields.count == 4, !fields[3].isEmpty else {
        throw MutationError(
          "\(file.lastPathComponent):\(number + 1): expected MODULE/FILE | DECLARATION | CHANGE | WHY")
      }
      reasons[fields[0..<3].joined(separator: " | ")] = fields[3]
    }
  }

  /// Why `mutant` of `module` is equivalent; nil where it is not recorded as such.
  func reason(for mutant: Mutant, in module: String) -> String? { reasons["\(module)/\(mutant.key)"] }
}
