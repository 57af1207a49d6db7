import ArgumentParser
import Foundation
import Mutation

/// `scripts/mutate`: plants mutants in metronome's pure modules one at a time and runs each
/// module's unit tests against them, to find the promises no test pins.
@main
struct Mutate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mutate",
    abstract: "Plants small bugs in metronome's pure modules, one at a time, and runs each module's unit tests.",
    discussion: """
      Every mutant of a module is compiled in at once, each behind its number, into a copy of the
      project under .build/mutation (release), so one build serves them all; each test run plants
      one by the environment. Mutants that do not compile are taken out, and remembered for the
      next run. Run from the project's root, as scripts/mutate does.
      """)

  @Argument(
    help:
      "The modules to mutate (default: every pure one: \(ModuleUnderTest.pure.map(\.name).joined(separator: ", "))).")
  var modules: [String] = []

  @Option(help: "Only the files whose name contains this (repeatable).")
  var file: [String] = []

  @Option(help: "Test runs at a time.")
  var jobs = 2

  @Option(help: "Where the report is written (Markdown; every mutant's outcome beside it, as .tsv).")
  var report = ".build/mutation/report.md"

  @Flag(help: "List the mutants and run nothing.")
  var list = false

  mutating func validate() throws {
    for name in modules where ModuleUnderTest.named(name) == nil {
      throw ValidationError(
        "no pure module '\(name)': give one of \(ModuleUnderTest.pure.map(\.name).joined(separator: ", "))")
    }
    guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more") }
  }

  func run() throws {
    let project = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let chosen = (modules.isEmpty ? ModuleUnderTest.pure : modules.compactMap(ModuleUnderTest.named)).map { module in
      file.isEmpty
        ? module
        : ModuleUnderTest(
          name: module.name, tests: module.tests,
          files: try? Set(
            Workspace.sourceFiles(of: module, in: project).filter { name in file.contains { name.contains($0) } }))
    }
    let equivalents = try Equivalents(file: project.appendingPathComponent("scripts/mutation-equivalents.txt"))
    if list {
      try listMutants(of: chosen, in: project, equivalents: equivalents)
      return
    }
    let commit = Self.commit(of: project)
    let workspace = try Workspace(project: project, copy: project.appendingPathComponent(".build/mutation/work"))
    note("building a copy of the project in release (.build/mutation/work)")
    guard try workspace.build().isEmpty else { throw MutationError("the project itself does not build") }
    var result = Report()
    for module in chosen {
      let before = result
      result.modules.append(
        try mutate(module, in: workspace, equivalents: equivalents) { partial in
          // Every hundred mutants, the report so far: a long run stopped keeps what it found.
          var sofar = before
          sofar.modules.append(partial)
          try? write(sofar, at: commit, project: project)
        })
      try workspace.restore(module)
      try write(result, at: commit, project: project)
    }
    for module in result.modules { print(module.row) }
    print("report: \(report)")
  }

  /// Plants `module`'s mutants, builds them, and runs its tests against each.
  private func mutate(
    _ module: ModuleUnderTest, in workspace: Workspace, equivalents: Equivalents,
    checkpoint: @escaping @Sendable (Report.Module) -> Void
  ) throws -> Report.Module {
    let started = Date()
    let everyMutant = try workspace.mutants(of: module)
    // The mutants that did not compile last time, where the code is as it was then (named by
    // file, line, column and change): taken out at once rather than found again round by round.
    let notCompiling = workspace.copy.deletingLastPathComponent().appendingPathComponent(
      "not-compiling-\(module.name).txt")
    let knownNotCompiling = Set(
      ((try? String(contentsOf: notCompiling, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init))
    var excluded = Set(everyMutant.filter { knownNotCompiling.contains($0.description) }.map(\.id))
    var planted: (mutants: [Mutant], numbered: Int) = ([], 0)
    for round in 1... {
      planted = try workspace.plant(module, excluding: excluded)
      note("\(module.name): compiling \(planted.mutants.count) mutants in (round \(round))")
      let errors = try workspace.build(only: module)
      if errors.isEmpty { break }
      var culprits: Set<Int> = []
      for error in errors { culprits.formUnion(try workspace.culprits(in: module, of: error)) }
      culprits.subtract(excluded)
      guard !culprits.isEmpty, round < 30 else {
        throw MutationError("\(module.name): errors no mutant explains: \(errors.prefix(3))")
      }
      excluded.formUnion(culprits)
      let kinds = Set(planted.mutants.filter { culprits.contains($0.id) }.map { "\($0.original) → \($0.mutated)" })
      note("\(module.name): \(culprits.count) did not compile: \(kinds.sorted().prefix(6).joined(separator: "; "))")
    }
    note("\(module.name): building the tests in release")
    guard try workspace.build().isEmpty else {
      throw MutationError("\(module.name): built in debug but not in release")
    }
    var outcome = Report.Module(name: module.name)
    outcome.notCompiling = everyMutant.filter { excluded.contains($0.id) }
    try outcome.notCompiling.map { "\($0.description)\n" }.joined().write(
      to: notCompiling, atomically: true, encoding: .utf8)
    var runner = try TestRunner(module, in: workspace)
    let baseline = try runner.runBaseline()
    guard baseline.outcome == .survived else {
      throw MutationError("\(module.name): its tests fail with no mutant planted: \(baseline.failure)")
    }
    let counted = planted.mutants.filter { equivalents.reason(for: $0, in: module.name) == nil }
    outcome.equivalent = planted.mutants.compactMap { mutant in
      equivalents.reason(for: mutant, in: module.name).map { (mutant, $0) }
    }
    note(
      "\(module.name): \(counted.count) mutants to run (\(excluded.count) did not compile, \(outcome.equivalent.count) equivalent); all its tests \(String(format: "%.1f", baseline.seconds)) s"
    )
    let sofar = outcome
    outcome.outcomes = try runAll(counted, with: runner, module: module.name) { done in
      var partial = sofar
      partial.outcomes = done
      partial.unrun = counted.count - done.count
      partial.seconds = Date().timeIntervalSince(started)
      checkpoint(partial)
    }
    outcome.seconds = Date().timeIntervalSince(started)
    return outcome
  }

  /// Runs `mutants` `jobs` at a time, saying how far it got.
  private func runAll(
    _ mutants: [Mutant], with runner: TestRunner, module: String,
    checkpoint: @escaping @Sendable ([(Mutant, TestRunner.Outcome, String)]) -> Void
  ) throws -> [(Mutant, TestRunner.Outcome, String)] {
    let results = Results(count: mutants.count)
    DispatchQueue.concurrentPerform(iterations: jobs) { _ in
      while let index = results.next() {
        let result = (try? runner.run(mutant: mutants[index].id)) ?? (.killed, "the test bundle could not run")
        let progress = results.record(index, result.outcome, result.failure)
        if progress.done % 25 == 0 || progress.done == mutants.count {
          note(
            "\(module): \(progress.done) of \(mutants.count) run, \(progress.noticed) noticed, \(progress.survived) survived"
          )
        }
        if progress.done % 100 == 0, progress.done < mutants.count {
          checkpoint(results.finished.map { (mutants[$0.index], $0.outcome, $0.failure) })
        }
      }
    }
    return zip(mutants, results.all).map { ($0, $1.0, $1.1) }
  }

  /// Lists the mutants of `modules` as the rewriter writes them, numbered, with the count.
  private func listMutants(of modules: [ModuleUnderTest], in project: URL, equivalents: Equivalents) throws {
    for module in modules {
      var next = 0
      var count = 0
      for name in try Workspace.sourceFiles(of: module, in: project) {
        let source = try String(
          contentsOf: project.appendingPathComponent("Sources/\(module.name)/\(name)"), encoding: .utf8)
        let rewritten = try MutantSchema.rewrite(source, file: name, firstID: next)
        for mutant in rewritten.mutants {
          let equivalent = equivalents.reason(for: mutant, in: module.name).map { " (equivalent: \($0))" } ?? ""
          print("\(module.name) #\(mutant.id) \(mutant.description)\(equivalent)")
        }
        count += rewritten.mutants.count
        next = rewritten.nextID
      }
      print("\(module.name): \(count) mutants")
    }
  }

  /// The commit the checkout at `project` is at, and whether its package, sources or tests differ
  /// from it: what a run that starts now measures.
  private static func commit(of project: URL) -> String {
    let git = { (arguments: [String]) in
      (try? Command.run("/usr/bin/git", ["-C", project.path] + arguments).output)?
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let head = git(["rev-parse", "--short", "HEAD"]) ?? "?"
    let changed =
      git(["status", "--porcelain", "--", "Package.swift", "Sources", "Tests"]).map { !$0.isEmpty } ?? false
    return changed ? "\(head) with changes not committed" : head
  }

  /// Writes `result`, measured at `commit`, to the report and the table beside it.
  private func write(_ result: Report, at commit: String, project: URL) throws {
    let url = URL(fileURLWithPath: report, relativeTo: project)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try result.markdown(commit: commit).write(to: url, atomically: false, encoding: .utf8)
    try result.table.write(
      to: url.deletingPathExtension().appendingPathExtension("tsv"), atomically: false, encoding: .utf8)
  }
}

/// A progress line on standard error.
func note(_ line: String) {
  FileHandle.standardError.write(Data("mutate: \(line)\n".utf8))
}

/// The outcomes of the mutants run so far, shared by the workers.
private final class Results: @unchecked Sendable {
  private let lock = NSLock()
  private var taken = 0
  private(set) var all: [(TestRunner.Outcome, String)]
  private var isDone: [Bool]
  private var done = 0
  private var noticed = 0

  init(count: Int) {
    all = Array(repeating: (.survived, ""), count: count)
    isDone = Array(repeating: false, count: count)
  }

  /// The outcomes recorded so far, by the mutants' places in the list.
  var finished: [(index: Int, outcome: TestRunner.Outcome, failure: String)] {
    lock.lock()
    defer { lock.unlock() }
    return all.indices.filter { isDone[$0] }.map { ($0, all[$0].0, all[$0].1) }
  }

  /// The next mutant to run; nil once all are taken.
  func next() -> Int? {
    lock.lock()
    defer { lock.unlock() }
    guard taken < all.count else { return nil }
    taken += 1
    return taken - 1
  }

  /// Records mutant `index`'s outcome; how many are done, noticed and survived.
  func record(_ index: Int, _ outcome: TestRunner.Outcome, _ failure: String) -> (
    done: Int, noticed: Int, survived: Int
  ) {
    lock.lock()
    defer { lock.unlock() }
    all[index] = (outcome, failure)
    isDone[index] = true
    done += 1
    if outcome != .survived { noticed += 1 }
    return (done, noticed, done - noticed)
  }
}
