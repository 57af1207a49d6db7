import Foundation
import Mutation

/// A copy of the project the mutants are planted in, so that the checkout stays as it is: its
/// package, sources and tests, built in release (the room tests take minutes in debug, seconds
/// here) with a scratch folder of its own.
///
/// Every module's mutants come from the sources as they were when the run began, kept beside the
/// copy, so that the checkout can be edited (or a bug planted in it by hand) while a run of an
/// hour goes on without changing what that run measures.
struct Workspace {
  /// The copy.
  let copy: URL
  /// The folder holding the project's sources as they were when the run began.
  let snapshot: URL

  /// The copy's scratch folder.
  var scratch: URL { copy.appendingPathComponent(".build") }

  /// The built test bundle.
  var testBundle: URL { scratch.appendingPathComponent("release/metronomePackageTests.xctest") }

  /// Makes (or refreshes) the copy of `project` at `copy`: its package, sources and tests.
  init(project: URL, copy: URL) throws {
    self.copy = copy
    snapshot = copy.deletingLastPathComponent().appendingPathComponent("snapshot")
    for folder in [copy, snapshot] {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    try Self.replace("Sources", of: project, in: snapshot)
    for item in ["Package.swift", "Tests"] { try Self.replace(item, of: project, in: copy) }
    try Self.replace("Sources", of: snapshot, in: copy)
  }

  /// Copies `item` of `project` over the copy's, whatever the copy had there.
  private static func replace(_ item: String, of project: URL, in copy: URL) throws {
    let target = copy.appendingPathComponent(item)
    if FileManager.default.fileExists(atPath: target.path) { try FileManager.default.removeItem(at: target) }
    try FileManager.default.copyItem(at: project.appendingPathComponent(item), to: target)
  }

  /// The module's Swift files mutated, by name, in order.
  func files(of module: ModuleUnderTest) throws -> [String] { try Self.sourceFiles(of: module, in: snapshot) }

  /// `module`'s Swift files mutated in the project at `project`, by name, in order.
  static func sourceFiles(of module: ModuleUnderTest, in project: URL) throws -> [String] {
    let folder = project.appendingPathComponent("Sources/\(module.name)")
    return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
      .filter { module.files?.contains($0) ?? true }.sorted()
  }

  /// Every mutant of `module`'s files as the run began with them, numbered as `plant` numbers them.
  func mutants(of module: ModuleUnderTest) throws -> [Mutant] {
    var mutants: [Mutant] = []
    var next = 0
    for file in try files(of: module) {
      let source = try String(
        contentsOf: snapshot.appendingPathComponent("Sources/\(module.name)/\(file)"), encoding: .utf8)
      let rewritten = try MutantSchema.rewrite(source, file: file, firstID: next)
      mutants += rewritten.mutants
      next = rewritten.nextID
    }
    return mutants
  }

  /// Writes `module`'s files into the copy with every mutant in, but those `excluded`, and the
  /// helpers beside them; returns the mutants written in, and how many were numbered.
  func plant(_ module: ModuleUnderTest, excluding excluded: Set<Int>) throws -> (mutants: [Mutant], numbered: Int) {
    var mutants: [Mutant] = []
    var next = 0
    for file in try files(of: module) {
      let source = try String(
        contentsOf: snapshot.appendingPathComponent("Sources/\(module.name)/\(file)"), encoding: .utf8)
      let rewritten = try MutantSchema.rewrite(source, file: file, firstID: next, excluded: excluded)
      try rewritten.text.write(
        to: copy.appendingPathComponent("Sources/\(module.name)/\(file)"), atomically: false, encoding: .utf8)
      mutants += rewritten.mutants
      next = rewritten.nextID
    }
    try MutantSchema.helpers.write(
      to: copy.appendingPathComponent("Sources/\(module.name)/MutationHelpers.swift"), atomically: false,
      encoding: .utf8)
    return (mutants, next)
  }

  /// Puts `module`'s files back as the run began with them.
  func restore(_ module: ModuleUnderTest) throws { try Self.replace("Sources/\(module.name)", of: snapshot, in: copy) }

  /// Builds the copy and its tests in release (or only `module`, in debug: quicker, to learn
  /// which mutants compile); returns the compiler's errors as the file (its name), line and column
  /// each is at, empty where it built.
  ///
  /// Release keeps testability, as debug has it, for the tests of a module's internal types
  /// (`@testable import`).
  func build(only module: ModuleUnderTest? = nil) throws -> [CompilerError] {
    let what =
      module.map { ["--target", $0.name] } ?? ["-c", "release", "--build-tests", "-Xswiftc", "-enable-testing"]
    let result = try Command.run(
      "/usr/bin/env", ["swift", "build"] + what + ["--package-path", copy.path, "--scratch-path", scratch.path],
      failing: false)
    try result.output.write(to: copy.appendingPathComponent("last-build.log"), atomically: false, encoding: .utf8)
    guard result.status != 0 else { return [] }
    let errors = result.output.split(separator: "\n").compactMap { line -> CompilerError? in
      let parts = line.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
      guard parts.count == 5, parts[3].trimmingCharacters(in: .whitespaces) == "error", let row = Int(parts[1]),
        let column = Int(parts[2])
      else { return nil }
      return CompilerError(
        file: (String(parts[0]) as NSString).lastPathComponent, line: row, column: column, message: String(parts[4]))
    }
    guard !errors.isEmpty else {
      throw MutationError("the copy did not build, with no error in a file:\n\(result.output.suffix(2_000))")
    }
    return errors
  }

  /// The mutants in `module` (as the copy has it now) to blame for `error`: the one whose code
  /// holds it most nearly, or, for an expression the compiler could not check in time, every one
  /// in its statement.
  func culprits(in module: ModuleUnderTest, of error: CompilerError) throws -> [Int] {
    let text = try String(
      contentsOf: copy.appendingPathComponent("Sources/\(module.name)/\(error.file)"), encoding: .utf8)
    var offset = 0
    for (index, row) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      guard index + 1 < error.line else { break }
      offset += row.utf8.count + 1
    }
    offset += error.column - 1
    if error.message.contains("reasonable time") { return MutantSpans.mutants(inStatementAt: offset, in: text) }
    return MutantSpans.mutant(at: offset, in: text).map { [$0] } ?? MutantSpans.mutants(inFunctionAt: offset, in: text)
  }
}

/// An error the compiler gave: where, and what it said.
struct CompilerError: CustomStringConvertible {
  let file: String
  let line: Int
  let column: Int
  let message: String

  var description: String { "\(file):\(line):\(column): \(message)" }
}

/// A failure of the mutation tester itself, in one line.
struct MutationError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) { self.description = description }
}
