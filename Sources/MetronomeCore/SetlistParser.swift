/// Reads a setlist: one song per line, `[title:] song`, `#` starting a comment, blank lines
/// ignored.
///
/// A song is a tempo-map file (its path relative to the setlist's folder; a word that starts with a
/// digit or a point is a number, so write `./1.map`), a map line of its own (`bars [meter] tempo …`,
/// played once) or a tempo line (`tempo [meter] [pattern]`, played until the player moves on);
/// both may end in a map line's `name=value` settings.
/// Whatever does not parse is reported at its line and column, a map file's errors at its own.
public enum SetlistParser {
  /// The setlist in `text`, whose lines are reported as lines of `source`; `readMap` reads the
  /// map file at a path as written, given the column it starts at; random gaps are drawn with `seed`.
  public static func parse(
    _ text: String, source: String, seed: UInt64,
    readMap: (_ path: String, _ line: Int, _ column: Int) throws(TempoMapError) -> TempoMap
  ) throws(TempoMapError) -> Setlist {
    var songs: [Setlist.Song] = []
    var lineNumber = 0
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      lineNumber += 1
      let number = lineNumber
      let fail = { (column: Int, message: String) in
        TempoMapError(source: source, line: number, column: column, message: message)
      }
      var content = Substring(line.prefix { $0 != "#" })
      if let bad = content.firstIndex(where: { ($0.asciiValue ?? 0x20) < 0x20 && $0 != "\t" }) {
        throw fail(content.distance(from: content.startIndex, to: bad) + 1, "unexpected character; a setlist is text")
      }
      guard content.contains(where: { $0 != " " && $0 != "\t" }) else { continue }
      var title: String?
      if let colon = content.firstIndex(of: ":") {
        title = content[..<colon].trimmingBlanks
        guard title?.isEmpty == false else { throw fail(1, "expected a title before ':'") }
        // Blanks in its place keep the columns of what follows.
        content =
          Substring(String(repeating: " ", count: content.distance(from: content.startIndex, to: colon) + 1))
          + content[content.index(after: colon)...]
      }
      let song = content.trimmingBlanks
      guard !song.isEmpty else {
        throw fail(content.count + 1, "expected a song after the title: a map file, a map line or a tempo")
      }
      let column =
        content.distance(
          from: content.startIndex, to: content.firstIndex { $0 != " " && $0 != "\t" } ?? content.startIndex) + 1
      let map: TempoMap
      if !startsANumber(song) {
        map = try readMap(song, number, column)
        title = title ?? String(song.split(separator: "/").last?.split(separator: ".").first ?? Substring(song))
      } else {
        map = try parseLine(content, seed: seed, fail: fail)
      }
      songs.append(Setlist.Song(title: title ?? "song \(songs.count + 1)", map: map))
    }
    guard !songs.isEmpty else {
      throw TempoMapError(
        source: source, line: nil, column: nil,
        message: "no songs: write one per line, such as 'Opener: opener.map' or 'Ballad: 72 6/8 X..x..'")
    }
    return Setlist(songs: songs)
  }

  /// A song written on its line: a map line when it starts with two numbers, bars and a tempo
  /// (a meter between them allowed), else a tempo line.
  private static func parseLine(
    _ content: Substring, seed: UInt64, fail: (Int, String) -> TempoMapError
  ) throws(TempoMapError) -> TempoMap {
    let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
    let afterBars = words.dropFirst().first { !$0.contains("/") }
    let isMapLine = words.first?.allSatisfy(\.isWholeNumber) == true && afterBars.map(startsANumber) == true
    // Only a blank line or a comment is no line, and a song here starts with a number.
    guard let parsed = try TempoMapParser.parseLine(content, hasBars: isMapLine, seed: seed, fail: fail) else {
      preconditionFailure("a song that starts with a number is a line")
    }
    let map = TempoMap(sections: parsed.sections, countIn: parsed.countIn?.length)
    guard map.beatCount == nil || map.duration <= PlayLength.longestSeconds else {
      throw fail(1, "the song lasts longer than the longest run (\(Int(PlayLength.longestSeconds)) seconds)")
    }
    return map
  }

  /// Whether `word` starts as a number does: a digit, or a point.
  private static func startsANumber(_ word: some StringProtocol) -> Bool {
    word.first.map { $0.isWholeNumber || $0 == "." } ?? false
  }
}

extension StringProtocol {
  /// The text without the blanks (spaces and tabs) around it.
  var trimmingBlanks: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
