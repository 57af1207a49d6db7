import Mutation
import Testing

/// What the rewriter plants, and how: each mutant behind its number, the rest of the code as it was.
@Suite struct SchemataRewriterTests {
  private func rewrite(_ source: String, excluded: Set<Int> = []) throws -> (text: String, mutants: [Mutant]) {
    let result = try MutantSchema.rewrite(source, file: "F.swift", firstID: 0, excluded: excluded)
    return (result.text, result.mutants)
  }

  /// A comparison becomes a choice between its boundary's other side and itself; the constant
  /// in it is a mutant of its own.
  @Test func aComparisonIsMovedOverItsBoundary() throws {
    let (text, mutants) = try rewrite("func f(a: Int) -> Bool { a < 5 }")
    #expect(
      text
        == "func f(a: Int) -> Bool { (__mutated(1) ? (a) <= ((__mutated(0) ? 6 : 5)) : (a) < ((__mutated(0) ? 6 : 5))) }"
    )
    #expect(mutants.map(\.description) == ["F.swift:1:30 in f: 5 → 6", "F.swift:1:28 in f: a < 5 → a <= 5"])
    #expect(mutants.map(\.kind) == [.constant, .comparison])
  }

  /// `&&` and `||` swap, `+` and `-`, `*` and `/`, `==` and `!=`; an assignment's operator too (but
  /// the `||` over four mutated operators, left alone).
  @Test func operatorsSwapWithTheirOpposites() throws {
    let (text, mutants) = try rewrite(
      "func f(a: inout Int, b: Bool, c: Bool) { if b && c || a == a * a - a { a += a } }")
    #expect(
      mutants.filter { $0.kind != .removedStatement && $0.kind != .negatedCondition && $0.kind != .earlyReturn }
        .map(\.mutated) == ["b || c", "a / a", "a * a + a", "a != a * a - a", "a -= a"])
    #expect(text.contains("{ if !__mutated(6) { (__mutated(5) ? (a -= a) : (a += a)) } }"))
  }

  /// A condition is negated; a call or an assignment standing alone is taken out; a function
  /// returning nothing returns at once.
  @Test func conditionsStatementsAndFunctionsHaveTheirOwnMutants() throws {
    let (text, mutants) = try rewrite("func f(x: inout Int) {\n  if x > 0 { g() }\n  x = 2\n}")
    #expect(
      text
        == "func f(x: inout Int) {\nif __mutated(6) { return }\n\n  if __mutNot(2, (__mutated(1) ? (x) >= ((__mutated(0) ? 1 : 0)) : (x) > ((__mutated(0) ? 1 : 0)))) { if !__mutated(3) { g() } }\n  if !__mutated(5) { x = (__mutated(4) ? 3 : 2) }\n}"
    )
    #expect(
      mutants.map(\.kind) == [
        .constant, .comparison, .negatedCondition, .removedStatement, .constant, .removedStatement, .earlyReturn,
      ])
  }

  /// A count is moved by one, a larger number doubled: 1 600 Hz is not mutated to 1 601, which
  /// no one could hear.
  @Test func aLargeNumberIsDoubledNotMovedByOne() throws {
    let (_, mutants) = try rewrite("let a = 99 + 100 + 1_600")
    #expect(mutants.filter { $0.kind == .constant }.map(\.mutated) == ["100", "200", "3200"])
  }

  /// An excluded mutant (one that did not compile) is written as it was, and still counted, so
  /// that the others keep their numbers.
  @Test func anExcludedMutantIsWrittenAsItWasAndKeepsTheOthersNumbers() throws {
    let (text, mutants) = try rewrite("let x = 1 + 2", excluded: [2])
    #expect(text == "let x = (__mutated(0) ? 2 : 1) + (__mutated(1) ? 3 : 2)")
    #expect(mutants.map(\.id) == [0, 1])
  }

  /// Nothing is mutated in text, patterns, attributes or raw values; no statement is taken out of
  /// an initializer, nor a crash on purpose, nor a closure's only statement.
  @Test func whatMustStayAsWrittenStays() throws {
    let source = """
      enum E: Int { case a = 1 }
      struct S {
        let x: Int
        init() { x = 1 + 1 }
        func f(_ v: Int) -> String {
          switch v { case 3: fatalError("3 < 4") default: return "\\(v + 1)" }
        }
        func g(_ c: [Int]) { c.forEach { print($0) } }
      }
      """
    let (_, mutants) = try rewrite(source)
    #expect(mutants.map(\.original) == ["1", "1", "1 + 1", "c.forEach { print($0) }", "func g"])
  }

  /// An operator whose operands hold three mutated operators already is left alone: each one
  /// writes its operands twice.
  @Test func aLongChainIsMutatedOnlyThreeDeep() throws {
    let (_, mutants) = try rewrite("let y = a + b + c + d + e")
    #expect(mutants.map(\.original) == ["a + b", "a + b + c", "a + b + c + d"])
  }

  /// An assignment to a name declared without a value is not taken out: the name would be read
  /// before it is set.
  @Test func aNameSetLaterIsNotLeftUnset() throws {
    let (_, mutants) = try rewrite(
      "func f(c: Bool) -> Int {\n  let x: Int\n  let (y, z): (Int, Int)\n  if c { x = 1 } else { x = 2 }\n  (y, z) = (x, x)\n  return y + z\n}"
    )
    #expect(!mutants.contains { $0.kind == .removedStatement })
  }

  /// An error reported where a constant is used, not where the statement setting it was taken
  /// out, is blamed on the removals in the function around it.
  @Test func anErrorOutsideEveryMutantIsBlamedOnTheRemovalsAroundIt() throws {
    let (text, mutants) = try rewrite(
      "func f(c: Bool) -> Int {\n  var x = 0\n  if c { x = 1 } else { g(); x = 2 }\n  return x\n}")
    let bytes = Array(text.utf8)
    let use = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("return x".utf8)) })
    #expect(MutantSpans.mutant(at: use, in: text) == nil)
    let removals = mutants.filter { $0.kind == .removedStatement }.map(\.id)
    #expect(!removals.isEmpty)
    #expect(Set(MutantSpans.mutants(inFunctionAt: use, in: text)) == Set(removals))
  }
}
