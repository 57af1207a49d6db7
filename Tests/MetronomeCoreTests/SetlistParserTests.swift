import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct SetlistParserTests {
  /// Reads every song as a one-section map, the files through `maps`.
  private func parse(_ text: String, maps: [String: String] = [:]) throws(TempoMapError) -> Setlist {
    try SetlistParser.parse(text, source: "set", seed: 0) { path, line, column throws(TempoMapError) in
      guard let map = maps[path] else {
        throw TempoMapError(source: "set", line: line, column: column, message: "no file '\(path)'")
      }
      return try TempoMapParser.parse(map, source: path)
    }
  }

  /// A tempo line takes one meter, before or after its tempo, not both; a song of exactly the
  /// longest run is taken.
  @Test func aTempoLineTakesOneMeterAndASongTheLongestRun() throws {
    #expect(throws: TempoMapError.self) { try parse("A: 3/4 120 5/4\n") }
    #expect(try parse("A: 120 5/4\n").songs[0].map.sections[0].meter.numerator == 5)
    #expect(try parse("A: 100000000 4/4 240\n").songs[0].map.duration == PlayLength.longestSeconds)
    // Two seconds more is refused, the line named from its start.
    #expect {
      try parse("A: 50000001 4/4 120\n")
    } throws: { error in
      "\(error)" == "set:1:1: error: the song lasts longer than the longest run (100000000 seconds)"
    }
  }

  @Test func readsFilesMapLinesAndTempoLines() throws {
    let setlist = try parse(
      """
      # the gig
      Opener: songs/opener.map
      Take Five: 172 5/4 Xx.x. # a tempo line, meter after the tempo
        closer.map
      Coda: 8 3/4 90 count-in=2
      100
      """, maps: ["songs/opener.map": "intro: 4 120\n4 140\n", "closer.map": "2 60\n"])

    #expect(setlist.songs.map(\.title) == ["Opener", "Take Five", "closer", "Coda", "song 5"])
    #expect(setlist.songs[0].map.sections.count == 2)
    let takeFive = setlist.songs[1].map.sections[0]
    #expect(takeFive.bars == nil)
    #expect(takeFive.meter == (try Meter(5, 4, cap: NumeratorCap(atLeast: 5))))
    #expect(takeFive.tempo == .steady(172))
    #expect(takeFive.pattern?.description == "Xx.x.")
    #expect(setlist.songs[3].map.sections[0].bars == 8)
    #expect(setlist.songs[3].map.countIn == .bars(2))
    #expect(setlist.songs[4].map.beatCount == nil)
    #expect(!setlist.waitsBetweenSongs)
  }

  /// Spaces and tabs are blanks alike: a line of them is no song, and a title or a file's name
  /// ends where its blanks begin.
  @Test func tabsAreBlanksAsSpacesAre() throws {
    let setlist = try parse(" \t \nBallad \t:\t72\t6/8\t\n\tcloser.map\t \n", maps: ["closer.map": "2 60\n"])
    #expect(setlist.songs.map(\.title) == ["Ballad", "closer"])
    #expect(setlist.songs[0].map.sections[0].tempo == .steady(72))
    #expect(setlist.songs[1].map.sections[0].tempo == .steady(60))
  }

  /// Each problem is reported at its line and column in the setlist, or in the map that has it.
  @Test(arguments: [
    ("A: missing.map", "set:1:4: error: no file 'missing.map'"),
    ("A: bad.map", "bad.map:2:3: error: expected a tempo: 120, a ramp 120-140 or one per beat 120,122,…"),
    ("\n: 120", "set:2:1: error: expected a title before ':'"),
    ("A:", "set:1:3: error: expected a song after the title: a map file, a map line or a tempo"),
    ("A: 120 4/4 fast", "set:1:12: error: expected a pattern (X x o .), a setting such as sub=2, or '#'"),
    ("A: 120-140", "set:1:4: error: a song of one line plays one tempo: write ramps and tempos per beat in a map file"),
    ("A: 120 loop=2", "set:1:8: error: a song of one line plays for ever: it cannot loop"),
    ("A: 8 0", "set:1:6: error: a tempo must be from 1 to 1000 BPM"),
    ("A: 1\u{7}20", "set:1:5: error: unexpected character; a setlist is text"),
    (
      "# nothing\n", "set: error: no songs: write one per line, such as 'Opener: opener.map' or 'Ballad: 72 6/8 X..x..'"
    ),
  ])
  func reportsWhereASetlistGoesWrong(text: String, message: String) {
    #expect {
      try parse(text, maps: ["bad.map": "4 120\n4 fast\n"])
    } throws: { error in
      "\(error)" == message
    }
  }
}
