import SwiftParser
import SwiftSyntax

/// Where each mutant is written in a rewritten file: the span of code its number chooses, to
/// blame a compiler's error on the mutant whose code it is in.
public enum MutantSpans {
  /// The spans in `text`, a file as `MutantSchema` rewrote it: each mutant's number with the
  /// UTF-8 offsets its code starts and ends at.
  public static func spans(in text: String) -> [(id: Int, range: Range<Int>)] {
    let finder = SpanFinder(viewMode: .sourceAccurate)
    finder.walk(Parser.parse(source: text))
    return finder.spans
  }

  /// The mutant whose code holds the UTF-8 `offset` of `text` most nearly (the innermost span);
  /// nil where none does.
  public static func mutant(at offset: Int, in text: String) -> Int? {
    spans(in: text).filter { $0.range.contains(offset) }.min { $0.range.count < $1.range.count }?.id
  }

  /// Every mutant in the statement (or declaration) of `text` that holds the UTF-8 `offset`: an
  /// expression the compiler could not check in time is to blame as a whole.
  public static func mutants(inStatementAt offset: Int, in text: String) -> [Int] {
    let tree = Parser.parse(source: text)
    let finder = StatementFinder(offset: offset)
    finder.walk(tree)
    guard let statement = finder.innermost else { return [] }
    return spans(in: text).filter { statement.contains($0.range.lowerBound) }.map(\.id)
  }
}

extension MutantSpans {
  /// The mutants that take code out (a statement removed, an early return) in the innermost
  /// function, initializer, accessor or closure of `text` around the UTF-8 `offset` that has
  /// any: an error such as a constant used before it is set is reported where it is used, not
  /// where the statement that set it was taken out.
  public static func mutants(inFunctionAt offset: Int, in text: String) -> [Int] {
    let finder = FunctionFinder(offset: offset)
    finder.walk(Parser.parse(source: text))
    let utf8 = Array(text.utf8)
    let removals = spans(in: text).filter { utf8[$0.range.lowerBound...].starts(with: Array("if ".utf8)) }
    for function in finder.around.sorted(by: { $0.count < $1.count }) {
      let inside = removals.filter { function.contains($0.range.lowerBound) }
      if !inside.isEmpty { return inside.map(\.id) }
    }
    return []
  }
}

/// Finds the functions, initializers, accessors and closures holding an offset.
private final class FunctionFinder: SyntaxVisitor {
  private let offset: Int
  private(set) var around: [Range<Int>] = []

  init(offset: Int) {
    self.offset = offset
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { note(Syntax(node)) }
  override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { note(Syntax(node)) }
  override func visit(_ node: AccessorDeclSyntax) -> SyntaxVisitorContinueKind { note(Syntax(node)) }
  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { note(Syntax(node)) }
  override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind { note(Syntax(node)) }

  private func note(_ node: Syntax) -> SyntaxVisitorContinueKind {
    let range = node.positionAfterSkippingLeadingTrivia.utf8Offset..<node.endPositionBeforeTrailingTrivia.utf8Offset
    guard range.contains(offset) else { return .skipChildren }
    around.append(range)
    return .visitChildren
  }
}

/// Finds the innermost statement or member declaration holding an offset.
private final class StatementFinder: SyntaxVisitor {
  private let offset: Int
  private(set) var innermost: Range<Int>?

  init(offset: Int) {
    self.offset = offset
    super.init(viewMode: .sourceAccurate)
  }

  override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind { note(Syntax(node)) }
  override func visit(_ node: MemberBlockItemSyntax) -> SyntaxVisitorContinueKind { note(Syntax(node)) }

  private func note(_ node: Syntax) -> SyntaxVisitorContinueKind {
    let range = node.positionAfterSkippingLeadingTrivia.utf8Offset..<node.endPositionBeforeTrailingTrivia.utf8Offset
    guard range.contains(offset) else { return .skipChildren }
    if range.count < innermost?.count ?? .max { innermost = range }
    return .visitChildren
  }
}

/// Finds the code each mutant number chooses: `__mutated(N) ? … : …`, `if !__mutated(N) { … }`,
/// `if __mutated(N) { return }` and `__mutNot(N, …)`.
private final class SpanFinder: SyntaxVisitor {
  var spans: [(id: Int, range: Range<Int>)] = []

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    guard let name = node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
      name == "__mutated" || name == "__mutNot",
      let id = node.arguments.first.flatMap({ Int($0.expression.trimmedDescription) })
    else { return .visitChildren }
    // The choice the number makes: the ternary, the `if`, or the negation itself.
    var scope = Syntax(node)
    while let parent = scope.parent, !parent.is(TernaryExprSyntax.self), !parent.is(IfExprSyntax.self),
      !parent.is(CodeBlockItemSyntax.self)
    {
      scope = parent
    }
    let chosen = name == "__mutNot" ? Syntax(node) : scope.parent ?? scope
    spans.append(
      (id, chosen.positionAfterSkippingLeadingTrivia.utf8Offset..<chosen.endPositionBeforeTrailingTrivia.utf8Offset))
    return .visitChildren
  }
}
