import Foundation
import Mutation

/// What a run found, module by module: each mutant's outcome, the score kept, and the survivors
/// written as lines the equivalents list takes.
struct Report {
  /// One module's outcomes.
  struct Module {
    let name: String
    var notCompiling: [Mutant] = []
    var equivalent: [(Mutant, String)] = []
    var outcomes: [(Mutant, TestRunner.Outcome, String)] = []
    var seconds = 0.0
    /// Mutants not run yet, in a report written while the module runs; 0 once it is done.
    var unrun = 0

    /// The mutants counted: every one compiled in, but those recorded as equivalent.
    var counted: Int { outcomes.count }
    /// Those the tests noticed: killed or timed out.
    var noticed: Int { outcomes.filter { $0.1 != .survived }.count }
    /// The share noticed, in percent.
    var score: Double { counted > 0 ? Double(noticed) * 100 / Double(counted) : 100 }

    /// The row of the summary table.
    var row: String {
      let killed = outcomes.filter { $0.1 == .killed }.count
      let timedOut = outcomes.filter { $0.1 == .timedOut }.count
      let survived = outcomes.filter { $0.1 == .survived }.count
      let name = unrun > 0 ? "\(self.name) (so far: \(unrun) not run yet)" : self.name
      return
        "| \(name) | \(counted + unrun + equivalent.count + notCompiling.count) | \(notCompiling.count) | \(equivalent.count) | "
        + "\(killed) | \(timedOut) | \(survived) | \(String(format: "%.1f", score)) % | "
        + "\(String(format: "%.0f", seconds / 60)) min |"
    }
  }

  var modules: [Module] = []

  /// Every mutant of every module, a tab-separated row each: where it is, what it changes, and
  /// how it came out (noticed, survived, timed out, equivalent, not compiling) with what failed.
  var table: String {
    var rows = ["module\tid\tplace\tdeclaration\tkind\toriginal\tmutated\toutcome\tdetail"]
    for module in modules {
      let row = { (mutant: Mutant, outcome: String, detail: String) in
        [
          module.name, "\(mutant.id)", "\(mutant.file):\(mutant.line):\(mutant.column)", mutant.declaration,
          mutant.kind.rawValue, mutant.original, mutant.mutated, outcome, detail,
        ].map { $0.replacing("\t", with: " ") }.joined(separator: "\t")
      }
      rows += module.outcomes.map { row($0.0, $0.1.rawValue, $0.2) }
      rows += module.equivalent.map { row($0.0, "equivalent", $0.1) }
      rows += module.notCompiling.map { row($0, "not compiling", "") }
    }
    return rows.joined(separator: "\n") + "\n"
  }

  /// The report as Markdown: the summary table, then each module's survivors.
  func markdown(commit: String) -> String {
    var text = """
      # Mutation testing at \(commit)

      Written by `scripts/mutate`. A mutant is noticed when a unit test of its module fails or the
      tests run past their time; the score is the share noticed of those compiled in, less those
      recorded as equivalent (`scripts/mutation-equivalents.txt`).

      | module | mutants | not compiling | equivalent | killed | timed out | survived | score | time |
      |---|---|---|---|---|---|---|---|---|

      """
    text += modules.map(\.row).joined(separator: "\n") + "\n"
    for module in modules {
      let survivors = module.outcomes.filter { $0.1 == .survived }
      let unreached = survivors.filter { $0.2 == TestRunner.unreached }.count
      text += "\n## \(module.name): \(survivors.count) survived (\(unreached) reached by no test)\n\n"
      for (mutant, _, detail) in survivors {
        text +=
          "- `\(mutant.file):\(mutant.line):\(mutant.column)` in `\(mutant.declaration)`: `\(mutant.original)` → "
          + "`\(mutant.mutated)`\(detail.isEmpty ? "" : " (\(detail))")\n  `\(module.name)/\(mutant.key) | WHY`\n"
      }
    }
    return text
  }
}
