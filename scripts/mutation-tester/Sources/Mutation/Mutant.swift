/// One small change planted in the code, as a user-visible bug would be: where it is and what it
/// changes.
public struct Mutant: Equatable, Sendable {
  /// How the code is changed.
  public enum Kind: String, Equatable, Sendable, CaseIterable {
    /// A comparison moved over its boundary (`<` for `<=`, ...) or turned (`==` for `!=`).
    case comparison
    /// `&&` for `||` and the other way.
    case logic
    /// An arithmetic operator for its opposite (`+` for `-`, `*` for `/`), also in an assignment.
    case arithmetic
    /// A number one more (an integer under 100) or twice as much (a larger one, a decimal).
    case constant
    /// A condition of an `if`, `guard` or `while` negated.
    case negatedCondition
    /// A statement (a call, an assignment) taken out.
    case removedStatement
    /// A function with nothing to return returning at once.
    case earlyReturn
  }

  /// Its number in its module's run, which the environment names to plant it.
  public let id: Int
  /// The file it is in, as the module's folder names it.
  public let file: String
  /// The line of the code changed.
  public let line: Int
  /// The column the code changed starts at.
  public let column: Int
  /// The declaration it is in (`Type.function`), which names it apart from its line.
  public let declaration: String
  /// How the code is changed.
  public let kind: Kind
  /// The code as it is.
  public let original: String
  /// The code as the mutant has it.
  public let mutated: String

  /// A mutant as given.
  public init(
    id: Int, file: String, line: Int, column: Int, declaration: String, kind: Kind, original: String, mutated: String
  ) {
    self.id = id
    self.file = file
    self.line = line
    self.column = column
    self.declaration = declaration
    self.kind = kind
    self.original = original
    self.mutated = mutated
  }

  /// How it reads in a report: `File.swift:12:5 in Type.function: a < b → a <= b`.
  public var description: String { "\(file):\(line):\(column) in \(declaration): \(original) → \(mutated)" }

  /// What names it whatever line it moves to: its file, declaration and change.
  public var key: String { "\(file) | \(declaration) | \(original) → \(mutated)" }
}
