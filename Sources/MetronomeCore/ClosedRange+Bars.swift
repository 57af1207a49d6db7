extension ClosedRange<Int> {
  /// The bars `FIRST-LAST` (or `FIRST` alone) names, counted from 1, as `--loop-bars` takes them.
  public init(bars text: String) throws(BarRangeError) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
    guard (1...2).contains(parts.count), let first = parts[0], let last = parts.last ?? nil, first >= 1, last >= first
    else { throw BarRangeError(text: text) }
    self = first...last
  }
}

/// Bars that are not `FIRST-LAST` from bar 1.
public struct BarRangeError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was written.
  public let text: String

  /// The error for `text`.
  public init(text: String) { self.text = text }

  /// How it reads: what was wrong and what to write.
  public var description: String { "'\(text)' is not FIRST-LAST bars of the map, such as 5-8 (or 5)" }
}
