import Foundation
import Mutation

/// Runs a module's unit tests from the built test bundle against one mutant at a time, with the
/// mutant's number in the environment: its XCTest classes, then each of its Swift Testing suites
/// apart, quickest first, stopping at the first that fails, and only those whose run with no
/// mutant reached the mutant's code.
///
/// A mutant is noticed by one failing test, so a run that stops there spends on a noticed
/// mutant what its quickest failing suite takes, not the whole module's tests; a mutant no test
/// reaches survives without a run.
struct TestRunner: Sendable {
  /// How a mutant came out.
  enum Outcome: String, Sendable {
    /// A test failed, or the tests crashed.
    case killed
    /// The tests ran past their time (a loop the mutant made endless): counted as killed.
    case timedOut = "timed out"
    /// Every test passed.
    case survived
  }

  /// One run of the bundle: its arguments, how long it took with no mutant planted, and the
  /// mutants whose code it reached then.
  private struct Step: Sendable {
    let arguments: [String]
    var seconds = 0.0
    var reached: Set<Int> = []
  }

  private let bundle: String
  private var steps: [Step] = []

  /// A runner of `module`'s tests in `workspace`'s bundle.
  init(_ module: ModuleUnderTest, in workspace: Workspace) throws {
    bundle = workspace.testBundle.path
    let prefix = "\(module.tests)."
    let classes = Set(
      try Command.run(bundle, ["--list-tests"]).output.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map {
        String($0.split(separator: "/")[0])
      })
    if !classes.isEmpty { steps.append(Step(arguments: [classes.sorted().joined(separator: ",")])) }
    let suites = Set(
      try Command.run(bundle, ["--testing-library", "swift-testing", "--list-tests"]).output.split(separator: "\n")
        .filter { $0.hasPrefix(prefix) && $0.contains("/") }.map { String($0.split(separator: "/")[0]) })
    for suite in suites.sorted() {
      let pattern = suite.replacing(".", with: "\\.") + "/"
      steps.append(Step(arguments: ["--testing-library", "swift-testing", "--filter", pattern]))
    }
  }

  /// Runs every step with no mutant planted, timing each, learning which mutants' code it
  /// reaches, and putting the quickest first; how it came out, and how long it took in all.
  mutating func runBaseline() throws -> (outcome: Outcome, failure: String, seconds: Double) {
    let trace = FileManager.default.temporaryDirectory.appendingPathComponent("mutate-trace-\(getpid())")
    defer { try? FileManager.default.removeItem(at: trace) }
    for index in steps.indices {
      let started = Date()
      let result = try run(
        steps[index], environment: [MutantSchema.variable: "-1", MutantSchema.traceVariable: trace.path],
        timeout: nil)
      steps[index].seconds = Date().timeIntervalSince(started)
      if result.outcome != .survived { return (result.outcome, result.failure, 0) }
      let flags = [UInt8](try Data(contentsOf: trace))
      steps[index].reached = Set(flags.indices.filter { flags[$0] != 0 })
    }
    steps.sort { $0.seconds < $1.seconds }
    return (.survived, "", steps.reduce(0) { $0 + $1.seconds })
  }

  /// The text a survivor no test reaches is reported with.
  static let unreached = "reached by no test"

  /// Runs the tests that reach `mutant` against it, stopping at the first step that fails; how it
  /// came out, and what failed, briefly.
  func run(mutant: Int) throws -> (outcome: Outcome, failure: String) {
    let reaching = steps.filter { $0.reached.contains(mutant) }
    guard !reaching.isEmpty else { return (.survived, Self.unreached) }
    for step in reaching {
      // Five times what the step takes, and 5 s more for a machine busy with the other run.
      let result = try run(
        step, environment: [MutantSchema.variable: String(mutant)], timeout: max(5 * step.seconds, step.seconds + 5))
      if result.outcome != .survived { return result }
    }
    return (.survived, "")
  }

  private func run(_ step: Step, environment: [String: String], timeout: Double?) throws
    -> (outcome: Outcome, failure: String)
  {
    let result = try Command.run(bundle, step.arguments, environment: environment, timeout: timeout, failing: false)
    if result.timedOut { return (.timedOut, "") }
    guard result.status != 0 else { return (.survived, "") }
    let failed = result.output.split(separator: "\n").first { $0.contains("error:") || $0.contains("failed") }
    return (.killed, failed.map { String($0.prefix(200)) } ?? "status \(result.status)")
  }
}
