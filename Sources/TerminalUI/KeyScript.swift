import MetronomeCore

/// Timed key presses read from a file or standard input, one per line: `SECONDS KEY`, for
/// example `2.0 ]` or `4.5 space`.
///
/// Blank lines and lines starting with `#` are skipped.
public struct KeyScript: Equatable, Sendable {
  /// One press: when, in seconds after the start, and which key.
  public struct Press: Equatable, Sendable {
    /// When, in seconds after the start.
    public let seconds: Double
    /// Which key.
    public let key: Key
  }

  /// The presses, in time order.
  public let presses: [Press]

  /// A script with no presses.
  public init() { presses = [] }

  /// Parses `text`, or throws an error naming the first bad line.
  public init(parsing text: String) throws(KeyScriptError) {
    var presses: [Press] = []
    for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
      let trimmed = String(line.trimmed)
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      let fields = trimmed.split(maxSplits: 1, whereSeparator: \.isWhitespace).map { String($0.trimmed) }
      guard fields.count == 2, let seconds = Double(fields[0]), seconds >= 0, seconds.isFinite,
        let key = Key(name: fields[1]), KeyBindings.command(for: key) != nil
      else { throw KeyScriptError(line: number + 1, text: trimmed, problem: .unreadable) }
      guard seconds <= PlayLength.longestSeconds else {
        throw KeyScriptError(line: number + 1, text: trimmed, problem: .afterLongestRun)
      }
      presses.append(Press(seconds: seconds, key: key))
    }
    self.presses = presses.enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }
      .map(\.element)
  }
}

/// A line of a key script that cannot be played.
public struct KeyScriptError: Error, Equatable, CustomStringConvertible {
  /// What is wrong with a line.
  public enum Problem: Equatable, Sendable {
    /// It is not `SECONDS KEY` with a bound key.
    case unreadable
    /// Its time comes after the longest run metronome plays.
    case afterLongestRun
  }

  /// The line's number, from 1.
  public let line: Int
  /// The line, trimmed.
  public let text: String
  /// What is wrong with it.
  public let problem: Problem

  /// The error for line `line` reading `text`.
  public init(line: Int, text: String, problem: Problem) {
    self.line = line
    self.text = text
    self.problem = problem
  }

  /// The line, what is wrong with it and what to write instead.
  public var description: String {
    switch problem {
    case .unreadable:
      return "keys line \(line): '\(text)' is not 'SECONDS KEY' with a key metronome knows (such as '2.0 ]' or"
        + " '4 space')"
    case .afterLongestRun:
      return "keys line \(line): '\(text)' comes after the longest run, \(Tempo.format(PlayLength.longestSeconds))"
        + " seconds: press it earlier"
    }
  }
}

extension Substring {
  /// The text without leading or trailing whitespace.
  fileprivate var trimmed: Substring {
    guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
    else { return self[endIndex...] }
    return self[first...last]
  }
}
