import SwiftSyntax
import SwiftSyntaxBuilder

/// Rewrites one source file so that every mutant of it is compiled in at once, each behind its number.
///
/// This is a mutant schema. `a < b` becomes `(__mutated(7) ? (a) <= (b) : (a) < (b))`, which
/// compares with `<=` in the run that plants mutant 7 and with `<` in every other; a statement
/// `f()` becomes `if !__mutated(8) { f() }`; a condition `c` becomes `__mutNot(9, c)`; and so on
/// (`MutantSchema.helpers`). The changed code is written with the operators as they are, so that
/// the compiler checks it as it checks the original, and a change that cannot compile (a `-` for
/// text's `+`) fails where it is. So one build serves every mutant of a module, and each test run
/// picks one by the environment.
///
/// Mutants are numbered from `firstID` in the order the rewriter meets them, the same whichever
/// are `excluded` (those that did not compile: they are written as they were). An operator whose
/// operands already hold three mutated operators is left alone: each nests its operands twice.
final class SchemataRewriter: SyntaxRewriter {
  private let file: String
  private let converter: SourceLocationConverter
  private let excluded: Set<Int>
  private(set) var nextID: Int
  private(set) var mutants: [Mutant] = []

  /// A rewriter of `tree`, the file `file`, numbering from `firstID`.
  init(file: String, tree: SourceFileSyntax, firstID: Int, excluded: Set<Int>) {
    self.file = file
    converter = SourceLocationConverter(fileName: file, tree: tree)
    self.excluded = excluded
    nextID = firstID
    super.init(viewMode: .sourceAccurate)
  }

  /// The operators a mutant swaps, each with what it becomes.
  private static let operators: [String: (kind: Mutant.Kind, becomes: String)] = [
    "<": (.comparison, "<="), "<=": (.comparison, "<"), ">": (.comparison, ">="), ">=": (.comparison, ">"),
    "==": (.comparison, "!="), "!=": (.comparison, "=="), "&&": (.logic, "||"), "||": (.logic, "&&"),
    "+": (.arithmetic, "-"), "-": (.arithmetic, "+"), "*": (.arithmetic, "/"), "/": (.arithmetic, "*"),
    "+=": (.arithmetic, "-="), "-=": (.arithmetic, "+="), "*=": (.arithmetic, "/="), "/=": (.arithmetic, "*="),
  ]

  /// Calls whose removal is no bug a user would meet (a failed check, a crash on purpose).
  private static let kept: Set<String> = [
    "fatalError", "precondition", "preconditionFailure", "assert", "assertionFailure",
  ]

  override func visit(_ node: InfixOperatorExprSyntax) -> ExprSyntax {
    let rewritten = super.visit(node)
    guard let operatorNode = node.operator.as(BinaryOperatorExprSyntax.self),
      let swap = Self.operators[operatorNode.operator.text], !Self.isFixed(Syntax(node)), !Self.joinsText(node),
      Self.mutatedOperators(in: rewritten.description) < 3,
      let inner = rewritten.as(InfixOperatorExprSyntax.self)
    else { return rewritten }
    let left = inner.leftOperand.trimmedDescription
    let right = inner.rightOperand.trimmedDescription
    let original = "\(Self.short(node.leftOperand)) \(operatorNode.operator.text) \(Self.short(node.rightOperand))"
    let mutated = "\(Self.short(node.leftOperand)) \(swap.becomes) \(Self.short(node.rightOperand))"
    guard let id = take(Syntax(operatorNode), kind: swap.kind, original: original, mutated: mutated) else {
      return rewritten
    }
    let text = operatorNode.operator.text
    let call: ExprSyntax =
      text.hasSuffix("=") && text.count == 2 && !["==", "!=", "<=", ">="].contains(text)
      ? "(__mutated(\(raw: id)) ? (\(raw: left) \(raw: swap.becomes) \(raw: right)) : (\(raw: left) \(raw: text) \(raw: right)))"
      : "(__mutated(\(raw: id)) ? (\(raw: left)) \(raw: swap.becomes) (\(raw: right)) : (\(raw: left)) \(raw: text) (\(raw: right)))"
    return call.with(\.leadingTrivia, rewritten.leadingTrivia).with(\.trailingTrivia, rewritten.trailingTrivia)
  }

  /// A count or an index (under 100) one more, as an off-by-one would have it; a larger number
  /// (a frequency, a length in frames) twice as much, a change a promise about it would notice.
  override func visit(_ node: IntegerLiteralExprSyntax) -> ExprSyntax {
    guard !Self.isFixed(Syntax(node)), let value = Int(node.literal.text.filter { $0 != "_" }) else {
      return ExprSyntax(node)
    }
    let (doubled, overflow) = value.multipliedReportingOverflow(by: 2)
    let changed = value < 100 ? value + 1 : doubled
    guard !overflow || value < 100,
      let id = take(Syntax(node), kind: .constant, original: node.literal.text, mutated: "\(changed)")
    else { return ExprSyntax(node) }
    let call: ExprSyntax = "(__mutated(\(raw: id)) ? \(raw: changed) : \(node.trimmed))"
    return call.with(\.leadingTrivia, node.leadingTrivia).with(\.trailingTrivia, node.trailingTrivia)
  }

  override func visit(_ node: FloatLiteralExprSyntax) -> ExprSyntax {
    guard !Self.isFixed(Syntax(node)), let value = Double(node.literal.text.filter { $0 != "_" }) else {
      return ExprSyntax(node)
    }
    let changed = value == 0 ? "1.0" : "\(value * 2)"
    guard let id = take(Syntax(node), kind: .constant, original: node.literal.text, mutated: changed) else {
      return ExprSyntax(node)
    }
    let call: ExprSyntax = "(__mutated(\(raw: id)) ? \(raw: changed) : \(node.trimmed))"
    return call.with(\.leadingTrivia, node.leadingTrivia).with(\.trailingTrivia, node.trailingTrivia)
  }

  override func visit(_ node: ConditionElementSyntax) -> ConditionElementSyntax {
    let rewritten = super.visit(node)
    guard case .expression(let original) = node.condition, case .expression(let expression) = rewritten.condition,
      let id = take(
        Syntax(original), kind: .negatedCondition, original: Self.short(original), mutated: "!(\(Self.short(original)))"
      )
    else { return rewritten }
    let call: ExprSyntax = "__mutNot(\(raw: id), \(expression.trimmed))"
    return rewritten.with(
      \.condition,
      .expression(
        call.with(\.leadingTrivia, expression.leadingTrivia).with(\.trailingTrivia, expression.trailingTrivia)))
  }

  override func visit(_ node: CodeBlockItemSyntax) -> CodeBlockItemSyntax {
    let rewritten = super.visit(node)
    guard case .expr(let original) = node.item, case .expr(let expression) = rewritten.item, Self.isRemovable(original),
      !Self.isImplicitReturn(node), !Self.isInInitializer(Syntax(node)), !Self.setsALaterValue(original),
      let id = take(Syntax(original), kind: .removedStatement, original: Self.short(original), mutated: "(removed)")
    else { return rewritten }
    let statement: StmtSyntax = "if !__mutated(\(raw: id)) { \(expression.trimmed) }"
    return CodeBlockItemSyntax(item: .stmt(statement))
      .with(\.leadingTrivia, node.leadingTrivia).with(\.trailingTrivia, node.trailingTrivia)
  }

  override func visit(_ node: FunctionDeclSyntax) -> DeclSyntax {
    let rewritten = super.visit(node)
    guard let function = rewritten.as(FunctionDeclSyntax.self), let body = function.body, Self.returnsNothing(node),
      let id = take(
        Syntax(node.name), kind: .earlyReturn, original: "func \(node.name.text)", mutated: "returns at once")
    else { return rewritten }
    let early: CodeBlockItemSyntax = "if __mutated(\(raw: id)) { return }"
    let statements = [early.with(\.leadingTrivia, .newline).with(\.trailingTrivia, .newline)] + Array(body.statements)
    return DeclSyntax(function.with(\.body, body.with(\.statements, CodeBlockItemListSyntax(statements))))
  }

  /// Strings are what the user reads: nothing in them is mutated.
  override func visit(_ node: StringLiteralExprSyntax) -> ExprSyntax { ExprSyntax(node) }

  /// Takes the next number for a mutant at `node`; nil where it is excluded (it is still counted).
  private func take(_ node: Syntax, kind: Mutant.Kind, original: String, mutated: String) -> Int? {
    let id = nextID
    nextID += 1
    guard !excluded.contains(id) else { return nil }
    let location = node.startLocation(converter: converter)
    mutants.append(
      Mutant(
        id: id, file: file, line: location.line, column: location.column, declaration: Self.declaration(of: node),
        kind: kind, original: original, mutated: mutated))
    return id
  }

  /// Whether `node` is where code must be fixed as written: in an attribute, a pattern, an enum
  /// case's raw value, a compile-time condition or a macro.
  private static func isFixed(_ node: Syntax) -> Bool {
    var parent = node.parent
    while let current = parent {
      if current.is(AttributeSyntax.self) || current.is(SwitchCaseItemSyntax.self)
        || current.is(ExpressionPatternSyntax.self) || current.is(EnumCaseElementSyntax.self)
        || current.is(IfConfigClauseSyntax.self) || current.is(MacroExpansionExprSyntax.self)
        || current.is(GenericArgumentClauseSyntax.self)
      {
        return true
      }
      parent = current.parent
    }
    return false
  }

  /// Whether `node` adds text or lists (a string or array literal in either operand): `-` has no
  /// meaning for them, and the mutant would not compile.
  private static func joinsText(_ node: InfixOperatorExprSyntax) -> Bool {
    guard ["+", "+="].contains(node.operator.as(BinaryOperatorExprSyntax.self)?.operator.text) else { return false }
    return [node.leftOperand, node.rightOperand].contains { operand in
      operand.is(StringLiteralExprSyntax.self) || operand.is(ArrayExprSyntax.self)
        || operand.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .stringQuote }
    }
  }

  /// How many mutated operators `text` holds, each counted once though its operands are written
  /// twice: `__mutated(7) ? (` opens each one's changed branch.
  private static func mutatedOperators(in text: String) -> Int {
    Set(
      text.ranges(of: "__mutated(").compactMap { range -> Int? in
        let number = text[range.upperBound...].prefix { $0.isNumber }
        return text[number.endIndex...].hasPrefix(") ? (") ? Int(number) : nil
      }
    ).count
  }

  /// Whether `node` is in an initializer, which must set every stored property: taking out an
  /// assignment there does not compile.
  private static func isInInitializer(_ node: Syntax) -> Bool {
    var parent = node.parent
    while let current = parent {
      if current.is(InitializerDeclSyntax.self) { return true }
      if current.is(FunctionDeclSyntax.self) || current.is(ClosureExprSyntax.self) { return false }
      parent = current.parent
    }
    return false
  }

  /// Whether `expression` assigns a name declared without a value in a block around it (`let x:
  /// Int`, then `x = …` in each branch): taken out, the name would be read before it is set, which
  /// the compiler finds only once everything else type-checks, a build later.
  private static func setsALaterValue(_ expression: ExprSyntax) -> Bool {
    guard let infix = expression.as(InfixOperatorExprSyntax.self), infix.operator.is(AssignmentExprSyntax.self)
    else { return false }
    let targets = infix.leftOperand.as(TupleExprSyntax.self)?.elements.map(\.expression) ?? [infix.leftOperand]
    let names = Set(targets.compactMap { $0.as(DeclReferenceExprSyntax.self)?.baseName.text })
    guard !names.isEmpty else { return false }
    var parent = Syntax(expression).parent
    while let current = parent {
      if let block = current.as(CodeBlockItemListSyntax.self),
        block.contains(where: { item in
          item.item.as(VariableDeclSyntax.self)?.bindings.contains { binding in
            binding.initializer == nil
              && binding.pattern.tokens(viewMode: .sourceAccurate).contains { names.contains($0.text) }
          } ?? false
        })
      {
        return true
      }
      if current.is(FunctionDeclSyntax.self) || current.is(ClosureExprSyntax.self)
        || current.is(AccessorDeclSyntax.self)
      {
        return false
      }
      parent = current.parent
    }
    return false
  }

  /// Whether `expression`, a statement of its own, may be taken out: a call or an assignment.
  private static func isRemovable(_ expression: ExprSyntax) -> Bool {
    var inner = expression
    while let wrapped = inner.as(TryExprSyntax.self)?.expression ?? inner.as(AwaitExprSyntax.self)?.expression {
      inner = wrapped
    }
    if let call = inner.as(FunctionCallExprSyntax.self) {
      let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text ?? ""
      return !kept.contains(callee)
    }
    if let infix = inner.as(InfixOperatorExprSyntax.self) {
      if infix.operator.is(AssignmentExprSyntax.self) { return true }
      let text = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text ?? ""
      return ["+=", "-=", "*=", "/="].contains(text)
    }
    return false
  }

  /// Whether `item` is the only statement of a block that may be a value.
  ///
  /// Such blocks are a closure's, a getter's, a function's that returns one, or an `if`'s or a
  /// `switch` case's where the `if` or `switch` is itself a value. Taken out, the block would have
  /// no value and not compile.
  private static func isImplicitReturn(_ item: CodeBlockItemSyntax) -> Bool {
    guard let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1 else { return false }
    var owner = list.parent
    if owner?.is(CodeBlockSyntax.self) == true { owner = owner?.parent }
    guard let owner else { return true }
    if let function = owner.as(FunctionDeclSyntax.self) { return !returnsNothing(function) }
    if owner.is(IfExprSyntax.self) { return isValue(owner) }
    if owner.is(SwitchCaseSyntax.self), let switchExpr = owner.parent?.parent, switchExpr.is(SwitchExprSyntax.self) {
      return isValue(switchExpr)
    }
    let statements: [SyntaxProtocol.Type] = [
      GuardStmtSyntax.self, ForStmtSyntax.self, WhileStmtSyntax.self, RepeatStmtSyntax.self, DoStmtSyntax.self,
      DeferStmtSyntax.self, CatchClauseSyntax.self,
    ]
    return !statements.contains { owner.is($0) }
  }

  /// Whether an `if` or `switch` (or an `else if` in a chain) is used as a value: not a statement
  /// of its own, or the only statement of a block that is a value.
  private static func isValue(_ node: Syntax) -> Bool {
    var top = node
    while let parent = top.parent, parent.is(IfExprSyntax.self) { top = parent }
    var parent = top.parent
    if parent?.is(ExpressionStmtSyntax.self) == true { parent = parent?.parent }
    guard let item = parent?.as(CodeBlockItemSyntax.self) else { return true }
    return isImplicitReturn(item)
  }

  /// Whether `function` has a body and returns nothing.
  private static func returnsNothing(_ function: FunctionDeclSyntax) -> Bool {
    guard function.body != nil else { return false }
    guard let result = function.signature.returnClause?.type.trimmedDescription else { return true }
    return result == "Void" || result == "()"
  }

  /// The declaration `node` is in, with the types around it: `Type.function`.
  private static func declaration(of node: Syntax) -> String {
    var names: [String] = []
    var parent: Syntax? = node
    while let current = parent {
      if let function = current.as(FunctionDeclSyntax.self) {
        names.append(function.name.text)
      } else if current.is(InitializerDeclSyntax.self) {
        names.append("init")
      } else if let variable = current.as(VariableDeclSyntax.self), let binding = variable.bindings.first {
        names.append(binding.pattern.trimmedDescription)
      } else if let type = current.asProtocol(NamedDeclSyntax.self), !current.is(FunctionDeclSyntax.self) {
        names.append(type.name.text)
      } else if let extensionDecl = current.as(ExtensionDeclSyntax.self) {
        names.append(extensionDecl.extendedType.trimmedDescription)
      }
      parent = current.parent
    }
    return names.isEmpty ? "(file)" : names.reversed().joined(separator: ".")
  }

  /// `node`'s code on one line, shortened to 60 characters.
  private static func short(_ node: some SyntaxProtocol) -> String {
    let text = node.trimmedDescription.split(whereSeparator: \.isNewline).map { $0.drop(while: \.isWhitespace) }
      .joined(separator: " ")
    return text.count > 60 ? String(text.prefix(57)) + "..." : text
  }
}
