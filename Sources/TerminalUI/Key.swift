/// A key as a terminal sends it, with the name scripts and the help use for it.
public enum Key: Hashable, Sendable, CustomStringConvertible {
  case character(Character)
  case up
  case down
  case left
  case right
  case escape

  /// The key a name stands for: "space", "up", "down", "left", "right", "esc", or one character.
  public init?(name: String) {
    switch name.lowercased() {
    case "space": self = .character(" ")
    case "up": self = .up
    case "down": self = .down
    case "left": self = .left
    case "right": self = .right
    case "esc", "escape": self = .escape
    default:
      guard name.count == 1, let character = name.first else { return nil }
      self = .character(character)
    }
  }

  /// The key's name, as `init(name:)` reads it.
  public var name: String {
    switch self {
    case .character(" "): return "space"
    case .character(let character): return String(character)
    case .up: return "up"
    case .down: return "down"
    case .left: return "left"
    case .right: return "right"
    case .escape: return "esc"
    }
  }

  /// How the help shows the key: arrows as arrows.
  public var description: String {
    switch self {
    case .up: return "↑"
    case .down: return "↓"
    case .left: return "←"
    case .right: return "→"
    case .escape: return "Esc"
    case .character(" "): return "Space"
    case .character(let character): return String(character)
    }
  }
}
