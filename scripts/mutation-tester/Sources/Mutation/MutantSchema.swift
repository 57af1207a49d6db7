import SwiftOperators
import SwiftParser
import SwiftSyntax

/// A module's source files with all their mutants compiled in, each behind its number
/// (`SchemataRewriter`), and the helpers that plant the one the environment names.
public enum MutantSchema {
  /// The environment variable that names the mutant a run plants.
  public static let variable = "METRONOME_MUTANT"
  /// The environment variable that names a file a run writes, as it ends, which mutants' code it
  /// reached: a byte for each mutant's number, 1 where it was reached.
  public static let traceVariable = "METRONOME_MUTANT_TRACE"
  /// The most mutants a module may have, and so the trace's length.
  public static let mostMutants = 1 << 16

  /// `source`, the file `file`, rewritten with its mutants numbered from `firstID` but for those
  /// `excluded`: the text, the mutants written in, and the number after the last (excluded ones
  /// counted).
  public static func rewrite(_ source: String, file: String, firstID: Int, excluded: Set<Int> = [])
    throws -> (text: String, mutants: [Mutant], nextID: Int)
  {
    let parsed = Parser.parse(source: source)
    guard let tree = try OperatorTable.standardOperators.foldAll(parsed).as(SourceFileSyntax.self) else {
      return (source, [], firstID)
    }
    let rewriter = SchemataRewriter(file: file, tree: tree, firstID: firstID, excluded: excluded)
    let text = rewriter.rewrite(tree).description
    return (text, rewriter.mutants, rewriter.nextID)
  }

  /// The helpers the rewritten files call, as a source file of the module: the mutant planted,
  /// read from the environment once; and, where the trace is asked for, a byte per mutant set
  /// when its code is reached, written out as the process ends.
  public static let helpers = """
    // Written by scripts/mutate into a copy of the module: never part of metronome.
    import Glibc

    let __mutant: Int = getenv("\(variable)").flatMap { Int(String(cString: $0)) } ?? -1

    nonisolated(unsafe) let __reached: UnsafeMutablePointer<UInt8>? = {
      guard getenv("\(traceVariable)") != nil else { return nil }
      let flags = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * \(mostMutants))
      flags.initialize(repeating: 0, count: 2 * \(mostMutants))
      atexit { __writeTrace() }
      // A process that ends on a trap (an exit test's child, stopped by a precondition) runs no
      // atexit: what it reached is written from the signal, which then ends it as it would have.
      for signal in [SIGILL, SIGTRAP, SIGABRT] {
        Glibc.signal(signal) { caught in
          __writeTrace()
          Glibc.signal(caught, SIG_DFL)
          raise(caught)
        }
      }
      return flags
    }()

    /// Adds what this process reached to the trace file, where an exit test's child writes
    /// before its parent does: neither takes out what the other wrote. Allocates nothing, and
    /// calls only what a signal handler may (the second half of the flags is room to read into).
    func __writeTrace() {
      guard let path = getenv("\(traceVariable)"), let flags = __reached else { return }
      let file = open(path, O_RDWR | O_CREAT, 0o644)
      guard file >= 0 else { return }
      let earlier = flags + \(mostMutants)
      let read = max(pread(file, earlier, \(mostMutants), 0), 0)
      for index in 0..<read where earlier[index] != 0 { flags[index] = 1 }
      _ = pwrite(file, flags, \(mostMutants), 0)
      close(file)
    }

    @inline(__always) func __mutated(_ id: Int) -> Bool {
      if let reached = __reached { reached[id] = 1 }
      return __mutant == id
    }
    @inline(__always) func __mutNot(_ id: Int, _ condition: Bool) -> Bool { __mutated(id) ? !condition : condition }

    """
}
