/// Reads klick's tempo-map files exactly as klick does: one section per line,
/// `[label:] bars [meter] tempo [pattern] [volume]`, `#` starting a comment, blank lines ignored.
///
/// The tempo is `t`, `t1-t2` (a ramp over the section) or `t1,t2,…` (one per beat); the meter
/// defaults to 4/4, the pattern to beat one strong and the others normal, the volume to 1. A pattern
/// may use `o` for a weak beat besides klick's `X`, `x` and `.`, and a meter may have up to
/// `NumeratorCap.ceiling` beats. Whatever does not parse is reported at its line and column.
///
/// After klick's columns a line may add what klick lacks, as `name=value` words: `sub=N` clicks
/// per beat and `swing=P` percent (eighths when alone), `gap=3:1` or `gap=25%` (bars of the
/// section muted), `count-in=N` bars before the map (on its first line), `loop=N` times the
/// section plays, and `step=S to=T`, a step trainer: from the line's tempo, S BPM more every
/// `bars` bars until T, which plays `bars` bars too.
public enum TempoMapParser {
  /// The most bars a section may have; the map as a whole may last no longer than the longest run.
  public static let maximumBars = 100_000_000
  /// The most sections a map may hold once its loops and steps are played out.
  public static let maximumSections = 1_000_000

  /// The map in `text`, whose lines are reported as lines of `source` (a file name, or `-`), its
  /// random gaps drawn with `seed`.
  public static func parse(_ text: String, source: String, seed: UInt64 = 0) throws(TempoMapError) -> TempoMap {
    var sections: [TempoMap.Section] = []
    var countIn: CountIn?
    var lineNumber = 0
    // Newlines as Characters: "\r\n" is one, so files written on Windows read alike.
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      lineNumber += 1
      let fail = { (column: Int, message: String) in
        TempoMapError(source: source, line: lineNumber, column: column, message: message)
      }
      guard let parsed = try parseLine(Substring(line), hasBars: true, seed: seed, fail: fail) else { continue }
      guard sections.last.map({ $0.bars != nil }) ?? true else {
        throw fail(1, "nothing can follow a section that plays for ever")
      }
      if let lineCountIn = parsed.countIn {
        guard sections.isEmpty else { throw fail(lineCountIn.column, "a count-in goes on the map's first line") }
        countIn = lineCountIn.length
      }
      guard sections.count + parsed.sections.count <= maximumSections else {
        throw fail(1, "the map holds more than \(maximumSections) sections once loops and steps are played out")
      }
      sections += parsed.sections
    }
    guard !sections.isEmpty else {
      throw TempoMapError(
        source: source, line: nil, column: nil,
        message: "no sections: write one per line, such as 'intro: 8 4/4 120' (see klick's manual)")
    }
    let map = TempoMap(sections: sections, countIn: countIn)
    guard map.duration <= PlayLength.longestSeconds else {
      throw TempoMapError(
        source: source, line: nil, column: nil,
        message: "the map lasts longer than the longest run (\(Int(PlayLength.longestSeconds)) seconds); shorten it")
    }
    return map
  }

  /// A line's sections (several for a loop or a step trainer), and the count-in it asks for.
  struct ParsedLine {
    let sections: [TempoMap.Section]
    let countIn: (length: CountIn, column: Int)?
  }

  /// A word of a line and the column (from 1) it starts at.
  struct Word {
    let text: Substring
    let column: Int
  }

  /// The sections of one line; nil for a blank line or a comment.
  ///
  /// Without `hasBars` the line is a song that plays for ever:
  /// `tempo [meter] [pattern] [name=value…]`, its meter on either side of the tempo.
  static func parseLine(
    _ line: Substring, hasBars: Bool, seed: UInt64, fail: (Int, String) -> TempoMapError
  ) throws(TempoMapError) -> ParsedLine? {
    let content = line.prefix { $0 != "#" }
    var words = splitWords(content)
    guard !words.isEmpty else { return nil }
    if let bad = content.firstIndex(where: { $0.isASCII == false || ($0.asciiValue ?? 0) < 0x20 && $0 != "\t" }) {
      throw fail(content.distance(from: content.startIndex, to: bad) + 1, "unexpected character; a map is plain text")
    }

    var label: String?
    if let colon = words[0].text.firstIndex(of: ":") {
      let first = words.removeFirst()
      let name = first.text[..<colon]
      guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
        throw fail(first.column, "expected a label of letters, digits, '_' or '-' before ':'")
      }
      label = String(name)
      let rest = first.text[first.text.index(after: colon)...]
      if !rest.isEmpty { words.insert(Word(text: rest, column: first.column + name.count + 1), at: 0) }
    }

    var remaining = words[...]
    var bars: Int?
    if hasBars {
      guard let barsWord = remaining.popFirst() else {
        throw fail(content.count + 1, "expected the number of bars after the label")
      }
      guard !barsWord.text.isEmpty, barsWord.text.allSatisfy(\.isWholeNumber) else {
        throw fail(barsWord.column, "expected the number of bars, a whole number such as 8")
      }
      guard let count = Int(barsWord.text), (1...maximumBars).contains(count) else {
        throw fail(barsWord.column, "the number of bars must be from 1 to \(maximumBars)")
      }
      bars = count
    }

    func parseMeter(_ word: Word) throws(TempoMapError) -> Meter {
      do {
        return try Meter(parsing: String(word.text), cap: .widest)
      } catch {
        throw fail(word.column, "\(error)")
      }
    }
    var meter = Meter.fourFour
    var hasMeter = false
    if let word = remaining.first, word.text.contains("/") {
      remaining.removeFirst()
      meter = try parseMeter(word)
      hasMeter = true
    }

    guard let tempoWord = remaining.popFirst() else {
      throw fail(content.count + 1, "expected a tempo: 120, a ramp 120-140 or one per beat 120,122,…")
    }
    let tempo = try parseTempo(tempoWord, bars: bars, meter: meter, fail: fail)
    // A tempo line takes its meter on either side of the tempo, as the command line does.
    if !hasBars, !hasMeter, let word = remaining.first, word.text.contains("/") {
      remaining.removeFirst()
      meter = try parseMeter(word)
    }

    var pattern: AccentPattern?
    if let word = remaining.first, word.text.allSatisfy({ "Xxo.".contains($0) }) {
      remaining.removeFirst()
      do {
        pattern = try AccentPattern(parsing: String(word.text))
      } catch {
        throw fail(word.column, "\(error)")
      }
      guard pattern?.fits(meter) == true else {
        throw fail(
          word.column, "the pattern has \(word.text.count) beats but \(meter) has \(meter.numerator): give one per beat"
        )
      }
    }

    var volume = 1.0
    if let word = remaining.first, !word.text.contains("=") {
      guard hasBars else { throw fail(word.column, "expected a pattern (X x o .), a setting such as sub=2, or '#'") }
      remaining.removeFirst()
      guard let value = number(word.text), value <= 2 else {
        throw fail(
          word.column, "expected a pattern (X x o .), a volume from 0 to 2, a setting such as sub=2, or '#'")
      }
      volume = value
    }
    let section = TempoMap.Section(
      label: label, bars: bars, meter: meter, tempo: tempo, pattern: pattern, volume: volume)
    return try SectionSettings(remaining, seed: seed, fail: fail).applied(to: section, fail: fail)
  }

  private static func parseTempo(
    _ word: Word, bars: Int?, meter: Meter, fail: (Int, String) -> TempoMapError
  ) throws(TempoMapError) -> TempoMap.SectionTempo {
    func bpm(_ text: Substring, at column: Int) throws(TempoMapError) -> Double {
      guard let value = number(text) else {
        throw fail(column, "expected a tempo: 120, a ramp 120-140 or one per beat 120,122,…")
      }
      guard Tempo.range.contains(value) else {
        throw fail(column, "a tempo must be from \(Int(Tempo.range.lowerBound)) to \(Int(Tempo.range.upperBound)) BPM")
      }
      return value
    }
    let text = word.text
    if bars == nil, text.contains(where: { $0 == "-" || $0 == "," }) {
      throw fail(word.column, "a song of one line plays one tempo: write ramps and tempos per beat in a map file")
    }
    if let dash = text.firstIndex(of: "-") {
      let first = try bpm(text[..<dash], at: word.column)
      let last = try bpm(
        text[text.index(after: dash)...], at: word.column + text.distance(from: text.startIndex, to: dash) + 1)
      return .ramp(from: first, to: last)
    }
    guard text.contains(",") else { return .steady(try bpm(text, at: word.column)) }
    var tempos: [Double] = []
    var column = word.column
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      tempos.append(try bpm(part, at: column))
      column += part.count + 1
    }
    guard let bars else { return .perBeat(tempos) }
    let beats = bars.multipliedReportingOverflow(by: meter.numerator)
    guard !beats.overflow, tempos.count == beats.partialValue else {
      throw fail(
        word.column,
        "\(tempos.count) tempos for \(bars) bar\(bars == 1 ? "" : "s") of \(meter.numerator) beats: give one per beat")
    }
    return .perBeat(tempos)
  }

  /// A decimal number as klick writes them: digits with an optional fraction, or a fraction alone.
  static func number(_ text: Substring) -> Double? {
    // Double refuses a second point, and digits that are not ASCII, itself.
    guard !text.isEmpty, text.allSatisfy({ $0.isWholeNumber || $0 == "." }), text != "." else { return nil }
    return Double(text.hasPrefix(".") ? "0" + text : String(text))
  }

  private static func splitWords(_ content: Substring) -> [Word] {
    var words: [Word] = []
    var column = 1
    var start: (index: Substring.Index, column: Int)?
    for index in content.indices {
      let isBlank = content[index] == " " || content[index] == "\t"
      if isBlank, let begun = start {
        words.append(Word(text: content[begun.index..<index], column: begun.column))
        start = nil
      } else if !isBlank, start == nil {
        start = (index, column)
      }
      column += 1
    }
    if let begun = start { words.append(Word(text: content[begun.index...], column: begun.column)) }
    return words
  }
}

/// Why a tempo map could not be read, and where: `FILE:LINE:COLUMN: error: what was expected`.
public struct TempoMapError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file (or `-` for standard input).
  public let source: String
  /// The line, from 1; nil for the map as a whole.
  public let line: Int?
  /// The column, from 1; nil for the map as a whole.
  public let column: Int?
  /// What was wrong or expected.
  public let message: String

  /// An error at `line` and `column` of `source`.
  public init(source: String, line: Int?, column: Int?, message: String) {
    self.source = source
    self.line = line
    self.column = column
    self.message = message
  }

  /// How it reads, as a compiler reports errors.
  public var description: String {
    let place = [line, column].compactMap { $0.map(String.init) }.joined(separator: ":")
    return "\(source)\(place.isEmpty ? "" : ":" + place): error: \(message)"
  }
}
