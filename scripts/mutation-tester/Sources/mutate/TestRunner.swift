import Foundation
import Mutation

/// Runs a module's unit tests from the built test bundle against one mutant at a time, with the
/// mutant's number in the environment: only the tests whose run with no mutant reached the
/// mutant's code, quickest first, in batches that double (one test, then two, then four…),
/// stopping at the first batch that fails.
///
/// A mutant is noticed by one failing test, so a run that stops there spends on a noticed
/// mutant little more than its quickest failing test takes, not the whole module's tests; the
/// doubling keeps the cost of starting the bundle small for a survivor many tests reach; a
/// mutant no test reaches survives without a run.
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

  /// The two libraries a test is written with, each run by the bundle in its own way.
  private enum Library: Sendable {
    case xcTest
    case swiftTesting
  }

  /// One test: its name as the bundle lists it, how long it took with no mutant planted, and the
  /// mutants whose code it reached then.
  private struct Test: Sendable {
    let library: Library
    let name: String
    var seconds = 0.0
    var reached: Set<Int> = []
  }

  private let bundle: String
  private var tests: [Test] = []

  /// A runner of `module`'s tests in `workspace`'s bundle.
  init(_ module: ModuleUnderTest, in workspace: Workspace) throws {
    bundle = workspace.testBundle.path
    let prefix = "\(module.tests)."
    for (library, arguments) in [(Library.xcTest, []), (.swiftTesting, ["--testing-library", "swift-testing"])] {
      let listed = try Command.run(bundle, arguments + ["--list-tests"]).output.split(separator: "\n")
      tests += Set(listed.filter { $0.hasPrefix(prefix) && $0.contains("/") }).sorted().map {
        Test(library: library, name: String($0))
      }
    }
  }

  /// Runs every test alone with no mutant planted, timing each, learning which mutants' code it
  /// reaches, and putting the quickest first; how it came out, and how long it took in all.
  mutating func runBaseline() throws -> (outcome: Outcome, failure: String, seconds: Double) {
    let trace = FileManager.default.temporaryDirectory.appendingPathComponent("mutate-trace-\(getpid())")
    defer { try? FileManager.default.removeItem(at: trace) }
    for index in tests.indices {
      // A test that reaches no mutant writes no trace: none must be left from the test before.
      try? FileManager.default.removeItem(at: trace)
      let started = Date()
      let result = try run(
        tests[index...index], environment: [MutantSchema.variable: "-1", MutantSchema.traceVariable: trace.path],
        timeout: nil)
      tests[index].seconds = Date().timeIntervalSince(started)
      if result.outcome != .survived { return (result.outcome, "\(tests[index].name): \(result.failure)", 0) }
      let flags = FileManager.default.fileExists(atPath: trace.path) ? [UInt8](try Data(contentsOf: trace)) : []
      tests[index].reached = Set(flags.indices.filter { flags[$0] != 0 })
    }
    tests.sort { $0.seconds < $1.seconds }
    return (.survived, "", tests.reduce(0) { $0 + $1.seconds })
  }

  /// The text a survivor no test reaches is reported with.
  static let unreached = "reached by no test"

  /// Runs the tests that reach `mutant` against it, in doubling batches of one library each,
  /// stopping at the first batch that fails; how it came out, and what failed, briefly.
  func run(mutant: Int) throws -> (outcome: Outcome, failure: String) {
    let reaching = tests.filter { $0.reached.contains(mutant) }
    guard !reaching.isEmpty else { return (.survived, Self.unreached) }
    var start = 0
    var size = 1
    while start < reaching.count {
      var end = min(start + size, reaching.count)
      if let other = reaching[start..<end].firstIndex(where: { $0.library != reaching[start].library }) { end = other }
      let batch = reaching[start..<end]
      let seconds = batch.reduce(0) { $0 + $1.seconds }
      // Five times what the batch takes, and 5 s more for a machine busy with the other run.
      let result = try run(
        batch, environment: [MutantSchema.variable: String(mutant)], timeout: max(5 * seconds, seconds + 5))
      if result.outcome != .survived { return result }
      start = end
      size *= 2
    }
    return (.survived, "")
  }

  /// Runs `batch`, tests of one library, in one process of the bundle, one test after another.
  ///
  /// One at a time, as `scripts/test` runs them: a test that measures the process (its resident
  /// memory, its time) reads only itself. Run beside others, the OSC codec's memory test once let
  /// a blob never freed (3.5 MB over the test, one at a time) go unnoticed.
  private func run(_ batch: ArraySlice<Test>, environment: [String: String], timeout: Double?) throws
    -> (outcome: Outcome, failure: String)
  {
    let arguments =
      switch batch.first?.library {
      case .swiftTesting:
        ["--testing-library", "swift-testing", "--no-parallel"] + batch.flatMap { ["--filter", Self.exactly($0.name)] }
      default: [batch.map(\.name).joined(separator: ",")]
      }
    // A mutant that crashes the tests ends them at once: no backtracer, which, its process killed
    // past the timeout, was left waiting on it for good (seven of them after one whole run).
    let result = try Command.run(
      bundle, arguments, environment: environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }, timeout: timeout,
      failing: false)
    if result.timedOut { return (.timedOut, "") }
    guard result.status != 0 else { return (.survived, "") }
    let failed = result.output.split(separator: "\n").first { $0.contains("error:") || $0.contains("failed") }
    return (.killed, failed.map { String($0.prefix(200)) } ?? "status \(result.status)")
  }

  /// A filter that matches the test `name` (`Module.Suite/test(arguments:)`) and no other.
  private static func exactly(_ name: String) -> String {
    // Every character regular expressions give a meaning to, taken as itself.
    name.reduce(into: "") { escaped, character in
      if "\\^$.|?*+()[]{}".contains(character) { escaped.append("\\") }
      escaped.append(character)
    }
  }
}
