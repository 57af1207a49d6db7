/// How long the count before the music lasts: whole bars, as klick's `-c` counts them, or a
/// number of beats, the last beats of a bar leading into bar one.
public enum CountIn: Hashable, Sendable, CustomStringConvertible {
  /// This many bars of the first meter; 0 counts two beats, as klick's `-c 0` does.
  case bars(Int)
  /// This many beats of the first meter (at least one), ending where bar one starts.
  case beats(Int)

  /// The most bars a count-in may last.
  public static let longestBars = 64
  /// The most beats a count-in may last.
  public static let longestBeats = 256

  /// `N` bars (0 to `longestBars`) or `Nb` beats (1 to `longestBeats`).
  public init(parsing text: some StringProtocol) throws(CountInError) {
    let isBeats = text.hasSuffix("b")
    let digits = isBeats ? text.dropLast() : text[...]
    guard !digits.isEmpty, digits.allSatisfy(\.isWholeNumber), let count = Int(digits),
      isBeats ? (1...Self.longestBeats).contains(count) : (0...Self.longestBars).contains(count)
    else { throw CountInError(text: String(text)) }
    self = isBeats ? .beats(count) : .bars(count)
  }

  /// How it is written: `2` for bars, `3b` for beats.
  public var description: String {
    switch self {
    case .bars(let count): "\(count)"
    case .beats(let count): "\(count)b"
    }
  }
}

/// A count-in that is neither bars nor beats in range.
public struct CountInError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was written.
  public let text: String

  /// How it reads: what was wrong and what to write.
  public var description: String {
    "count-in '\(text)' is neither bars (0 to \(CountIn.longestBars); 0 counts two beats) nor beats"
      + " (1b to \(CountIn.longestBeats)b)"
  }
}
