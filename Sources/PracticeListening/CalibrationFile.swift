/// The saved calibrations: one offset in milliseconds for each source, a line `midi 12.300`,
/// `keys 41.200` or `jack-round-trip 26.667` each, the day it was made after it where known
/// (`jack-round-trip 26.667 2026-11-25`); `#` starts a comment.
public struct CalibrationFile: Equatable, Sendable {
  /// Each source's offset, in ms.
  public private(set) var offsets: [Calibration.Source: Double] = [:]
  /// The day each source was calibrated, as `YYYY-MM-DD`, where the file says.
  public private(set) var days: [Calibration.Source: String] = [:]

  /// No calibration yet.
  public init() {}

  /// The calibrations `text` holds; throws a line naming `source` and the line that is wrong.
  public init(parsing text: String, source: String) throws(CalibrationError) {
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let words = line.prefix { $0 != "#" }.split(whereSeparator: \.isWhitespace)
      guard !words.isEmpty else { continue }
      guard words.count == 2 || words.count == 3 && Self.isDay(words[2]),
        let kind = Calibration.Source(rawValue: String(words[0])),
        let milliseconds = Double(words[1]), milliseconds.isFinite, abs(milliseconds) <= 1_000
      else {
        throw CalibrationError(
          "\(source):\(index + 1): error: '\(line)' is not 'midi MS', 'keys MS' or 'jack-round-trip MS' (at most"
            + " 1000 ms either way), then the day it was made (YYYY-MM-DD) or nothing:"
            + " calibrate again, or remove the line")
      }
      offsets[kind] = milliseconds
      days[kind] = words.count == 3 ? String(words[2]) : nil
    }
  }

  /// The file with `source`'s offset set to `milliseconds`, measured on `day` (`YYYY-MM-DD`;
  /// nil for a day not known).
  public func setting(_ source: Calibration.Source, to milliseconds: Double, on day: String? = nil) -> CalibrationFile {
    var file = self
    file.offsets[source] = milliseconds
    file.days[source] = day.flatMap { Self.isDay(Substring($0)) ? $0 : nil }
    return file
  }

  /// Whether `word` is a day as the file writes it: `YYYY-MM-DD`.
  private static func isDay(_ word: Substring) -> Bool {
    word.count == 10
      && word.enumerated().allSatisfy { index, character in
        index == 4 || index == 7 ? character == "-" : character.isASCII && character.isNumber
      }
  }

  /// The file's text.
  public var text: String {
    "# metronome calibrate: the milliseconds taken off each hit, the median of a tap-along,"
      + " or the round trip of calibrate --loopback\n"
      + Calibration.Source.allCases.compactMap { source in
        offsets[source].map { "\(source.rawValue) \(HitLine.thousandths($0))\(days[source].map { " \($0)" } ?? "")\n" }
      }.joined()
  }
}
