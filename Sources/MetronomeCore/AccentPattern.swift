/// The level of every beat of a bar: `X..x..` for 6/8 as klick reads it, or built from a grouping
/// such as `2+2+3`.
public struct AccentPattern: Hashable, Sendable, CustomStringConvertible {
  /// One level per beat, beat one first.
  public let levels: [AccentLevel]

  /// A pattern of `levels`; it needs at least one.
  public init(levels: [AccentLevel]) throws(AccentPatternError) {
    guard !levels.isEmpty else { throw .empty }
    guard levels.count <= NumeratorCap.ceiling else { throw .tooLong(levels.count) }
    self.levels = levels
  }

  /// The pattern `text` writes, one character per beat: `X` strong, `x` normal, `o` weak, `.` silent.
  public init(parsing text: String) throws(AccentPatternError) {
    var levels: [AccentLevel] = []
    for character in text {
      guard let level = AccentLevel(rawValue: character) else { throw .unknownCharacter(character, in: text) }
      levels.append(level)
    }
    try self.init(levels: levels)
  }

  /// The pattern of a grouping such as `2+2+3`: beat one strong, the first beat of every other
  /// group normal, the rest weak, so that the groups are heard.
  public init(grouping text: String) throws(AccentPatternError) {
    let parts = text.split(separator: "+", omittingEmptySubsequences: false)
    var sizes: [Int] = []
    for part in parts {
      guard let size = Int(part), (1...NumeratorCap.ceiling).contains(size) else { throw .unreadableGrouping(text) }
      sizes.append(size)
    }
    try self.init(groups: sizes)
  }

  /// The pattern of groups of `sizes` beats, as `init(grouping:)` describes.
  public init(groups sizes: [Int]) throws(AccentPatternError) {
    var levels: [AccentLevel] = []
    for size in sizes {
      levels.append(levels.isEmpty ? .strong : .normal)
      levels += Array(repeating: .weak, count: max(size - 1, 0))
      guard levels.count <= NumeratorCap.ceiling else { throw .tooLong(levels.count) }
    }
    try self.init(levels: levels)
  }

  /// Beat one strong, the others normal: what plays without a pattern.
  public static func standard(beats: Int) -> AccentPattern {
    let count = min(max(beats, 1), NumeratorCap.ceiling)
    return AccentPattern(uncheckedLevels: [.strong] + Array(repeating: .normal, count: count - 1))
  }

  /// Threes for the compound meters: 6/8, 9/8, 12/8 (any multiple of three eighths from six).
  ///
  /// 6/8 is felt in two, 12/8 in four. Nil for other meters.
  public static func compound(for meter: Meter) -> AccentPattern? {
    guard meter.denominator == 8, meter.numerator >= 6, meter.numerator.isMultiple(of: 3) else { return nil }
    return try? AccentPattern(groups: Array(repeating: 3, count: meter.numerator / 3))
  }

  private init(uncheckedLevels levels: [AccentLevel]) { self.levels = levels }

  /// Beats in the pattern.
  public var count: Int { levels.count }

  /// Whether it has `meter.numerator` beats, so that it fits a bar of `meter`; otherwise it does
  /// not apply, and beats play at `standard` levels.
  public func fits(_ meter: Meter) -> Bool { levels.count == meter.numerator }

  /// The level of beat `beatInBar` (from 1).
  public func level(ofBeat beatInBar: Int) -> AccentLevel { levels[(beatInBar - 1) % levels.count] }

  /// The pattern with beat `beatInBar` (from 1) moved to its next level.
  public func cyclingLevel(ofBeat beatInBar: Int) -> AccentPattern {
    var levels = self.levels
    let index = (beatInBar - 1) % levels.count
    levels[index] = levels[index].next
    return AccentPattern(uncheckedLevels: levels)
  }

  /// As written: `X..x..`.
  public var description: String { String(levels.map(\.rawValue)) }
}

/// Why a pattern or a grouping cannot be read.
public enum AccentPatternError: Error, Equatable, Sendable, CustomStringConvertible {
  case empty
  case tooLong(Int)
  case unknownCharacter(Character, in: String)
  case unreadableGrouping(String)
  case doesNotFit(AccentPattern, Meter)
  case groupingDoesNotFit(String, beats: Int, Meter)

  /// How it reads in messages and test failures.
  public var description: String {
    switch self {
    case .empty:
      return "an accent pattern needs a character per beat: X strong, x normal, o weak, . silent"
    case .tooLong(let count):
      return "an accent pattern of \(count) beats is longer than a bar may be (\(NumeratorCap.ceiling))"
    case .unknownCharacter(let character, let text):
      return "'\(character)' in the pattern '\(text)' is not a level: write X strong, x normal, o weak or . silent"
    case .unreadableGrouping(let text):
      return "'\(text)' is not a grouping: write the beats of each group joined by +, for example 2+2+3"
    case .doesNotFit(let pattern, let meter):
      return "the pattern '\(pattern)' has \(pattern.count) beat\(pattern.count == 1 ? "" : "s") but a bar of"
        + " \(meter) has \(meter.numerator): write one per beat"
    case .groupingDoesNotFit(let text, let beats, let meter):
      return "the groups \(text) add up to \(beats) beat\(beats == 1 ? "" : "s") but a bar of \(meter) has"
        + " \(meter.numerator): make them add up to \(meter.numerator)"
    }
  }
}
