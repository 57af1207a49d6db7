import MetronomeCore
import MetronomeTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TempoMapParserTests {
  @Test func readsKlicksExampleMapAsKlickDoes() throws {
    let map = try TempoMapParser.parse(klickExampleMap, source: "example")

    #expect(map.sections.count == 10)
    #expect(
      map.sections.map(\.label) == [
        "intro", "verse1", nil, "chorus1", "bridge", nil, "verse2", "chorus2", "outro", nil,
      ])
    #expect(map.sections.map(\.bars) == [8, 12, 4, 16, 8, 8, 12, 16, 6, 2])
    #expect(map.sections[2].tempo == .ramp(from: 120, to: 140))
    #expect(map.sections[2].pattern == (try AccentPattern(parsing: "X.x.")))
    #expect(map.sections[4].meter == (try Meter(3, 4)))
    #expect(map.sections[4].volume == 0.5)
    #expect(map.sections[6].meter == .fourFour)
    #expect(map.beatCount == 76 * 4 + 16 * 3)
  }

  @Test func readsEveryFormOfALine() throws {
    let map = try TempoMapParser.parse(
      "a:2 7/8 97.5 Xx.o.xx 1.5\n\n  # a comment\nlast-part_2: 1 55.5,60,70,80 # per beat\n\t3 100-50 .5\r\n",
      source: "forms")

    #expect(map.sections.count == 3)
    #expect(map.sections[0].label == "a")
    #expect(map.sections[0].tempo == .steady(97.5))
    #expect(map.sections[0].pattern?.description == "Xx.o.xx")
    #expect(map.sections[0].volume == 1.5)
    #expect(map.sections[1].label == "last-part_2")
    #expect(map.sections[1].tempo == .perBeat([55.5, 60, 70, 80]))
    #expect(map.sections[2].tempo == .ramp(from: 100, to: 50))
    #expect(map.sections[2].volume == 0.5)
  }

  /// Each malformed line is reported at its line and column, as a compiler reports errors.
  @Test(arguments: [
    ("8 120\nintro 8 120", "m:2:1: error: expected the number of bars, a whole number such as 8"),
    ("8 120\n\n  0 120", "m:3:3: error: the number of bars must be from 1 to 100000000"),
    ("4 7/3 120", "m:1:3: error: meter denominator 3 is not one of 1, 2, 4, 8, 16, 32, 64"),
    ("4 4/4", "m:1:6: error: expected a tempo: 120, a ramp 120-140 or one per beat 120,122,…"),
    ("4 4/4 fast", "m:1:7: error: expected a tempo: 120, a ramp 120-140 or one per beat 120,122,…"),
    ("4 120-", "m:1:7: error: expected a tempo: 120, a ramp 120-140 or one per beat 120,122,…"),
    ("4 0", "m:1:3: error: a tempo must be from 1 to 1000 BPM"),
    ("1 3/4 100,110", "m:1:7: error: 2 tempos for 1 bar of 3 beats: give one per beat"),
    ("2 3/4 100 X.x.", "m:1:11: error: the pattern has 4 beats but 3/4 has 3: give one per beat"),
    (
      "2 120 Xxxx 3",
      "m:1:12: error: expected a pattern (X x o .), a volume from 0 to 2, a setting such as sub=2, or '#'"
    ),
    ("2 120 Xxxx 1 extra", "m:1:14: error: unexpected 'extra'; settings are written name=value, such as sub=2"),
    ("2 120 sub=10", "m:1:11: error: sub must be a whole number from 1 to 9"),
    (
      "2 120 sub=3 swing=60",
      "m:1:13: error: swing delays every second click, so it needs an even subdivision (2, 4, 6 or 8), not 3"
    ),
    (
      "2 120 swing=80",
      "m:1:13: error: swing must be a share from 50 (straight) to 75 percent; 66.7 is the triplet feel"
    ),
    (
      "2 120 swing=75.1",
      "m:1:13: error: swing must be a share from 50 (straight) to 75 percent; 66.7 is the triplet feel"
    ),
    (
      "2 120 swing=49.9",
      "m:1:13: error: swing must be a share from 50 (straight) to 75 percent; 66.7 is the triplet feel"
    ),
    (
      "2 120 gap=3",
      "m:1:11: error: gap '3' is neither PLAY:MUTE bars (3:1, 1 to 1000 each) nor a share muted at random (25% of bars, 25%:beats)"
    ),
    (
      "2 120 tempo=3",
      "m:1:7: error: unknown setting 'tempo': a line takes sub=, swing=, gap=, count-in=, loop=, step= and to="
    ),
    ("2 120\n2 130 count-in=1", "m:2:7: error: a count-in goes on the map's first line"),
    ("2 120 step=5", "m:1:7: error: a step trainer needs both step= and to=, such as step=5 to=120"),
    ("2 120 to=140", "m:1:7: error: a step trainer needs both step= and to=, such as step=5 to=120"),
    (
      "2 120-130 step=5 to=140",
      "m:1:11: error: a step trainer needs one tempo to start from and steps every bars of its line: 4 100 step=5 to=120"
    ),
    ("2 120 step=-5 to=140", "m:1:7: error: step=-5 does not lead from 120 to 140 in at most 10000 steps"),
    ("2 120 loop=0", "m:1:12: error: loop must be a whole number from 1 to 1000"),
    ("1 120 step=0.1 to=1000 loop=1000", "m:1:24: error: the line would hold more than 1000000 sections"),
    ("bad label: 2 120", "m:1:1: error: expected the number of bars, a whole number such as 8"),
    (":2 120", "m:1:1: error: expected a label of letters, digits, '_' or '-' before ':'"),
    ("x: 2 1\u{1}20", "m:1:7: error: unexpected character; a map is plain text"),
    ("", "m: error: no sections: write one per line, such as 'intro: 8 4/4 120' (see klick's manual)"),
    (
      "# only a comment\n\n",
      "m: error: no sections: write one per line, such as 'intro: 8 4/4 120' (see klick's manual)"
    ),
    ("99999999999999999999 120", "m:1:1: error: the number of bars must be from 1 to 100000000"),
    // Columns after a label joined to its bars, at the end of a line, and in a list of tempos.
    ("intro:x 120", "m:1:7: error: expected the number of bars, a whole number such as 8"),
    ("intro:", "m:1:7: error: expected the number of bars after the label"),
    ("intro: 4 4/4", "m:1:13: error: expected a tempo: 120, a ramp 120-140 or one per beat 120,122,…"),
    ("1 3/4 100,110,0", "m:1:15: error: a tempo must be from 1 to 1000 BPM"),
    ("1 3/4 100,1001,90", "m:1:11: error: a tempo must be from 1 to 1000 BPM"),
    ("100000000 64/64 1", "m: error: the map lasts longer than the longest run (100000000 seconds); shorten it"),
  ])
  func reportsWhatWasExpectedWhereItWasNot(text: String, message: String) {
    #expect {
      try TempoMapParser.parse(text, source: "m")
    } throws: { error in
      "\(error)" == message
    }
  }

  /// The ranges' ends are in them: a volume of 2, a map of exactly the longest run.
  @Test func readsTheEndsOfTheRanges() throws {
    #expect(try TempoMapParser.parse("2 120 Xxxx 2", source: "m").sections[0].volume == 2)
    #expect(try TempoMapParser.parse("2 120 Xxxx 0", source: "m").sections[0].volume == 0)
    #expect(try TempoMapParser.parse("100000000 4/4 240", source: "m").duration == PlayLength.longestSeconds)
    // A volume not written is the sound's own; a tempo of two points is no number.
    #expect(try TempoMapParser.parse("2 120 Xxxx", source: "m").sections[0].volume == 1)
    #expect(throws: TempoMapError.self) { try TempoMapParser.parse("2 1.2.0", source: "m") }
    // klick's trainer: a ramp of exactly the most bars a section may have, and not a bar more.
    let most = Double(TempoMapParser.maximumBars) / 100
    #expect(TempoMap.klickTrainer(from: 80, to: 180, barsPerBPM: most, meter: .fourFour, pattern: nil) != nil)
    #expect(TempoMap.klickTrainer(from: 80, to: 180, barsPerBPM: most + 0.01, meter: .fourFour, pattern: nil) == nil)
  }

  /// A step trainer's step must change the tempo: step=0 is refused as a step.
  @Test func aStepOfNoBPMIsRefused() {
    #expect {
      try TempoMapParser.parse("2 120 step=0 to=140", source: "m")
    } throws: { error in
      "\(error)" == "m:1:12: error: step must be the BPM to change by every step, such as 5 or -5"
    }
  }

  /// A map holds a million sections once its loops and steps are played out, and not one more,
  /// on one line or over several: 1000 steps looped 1000 times; 999 times and 1000 steps more.
  @Test func aMapHoldsAMillionSectionsAndNotOneMore() throws {
    let thousand = "1 120 step=0.5 to=619.5"
    #expect(try TempoMapParser.parse("\(thousand) loop=1000", source: "m").sections.count == 1_000_000)
    #expect(throws: TempoMapError.self) { try TempoMapParser.parse("\(thousand) loop=1000\n1 120", source: "m") }
    let twoLines = "\(thousand) loop=999\n\(thousand)"
    #expect(try TempoMapParser.parse(twoLines, source: "m").sections.count == 1_000_000)
    #expect(throws: TempoMapError.self) { try TempoMapParser.parse("\(twoLines)\n1 120", source: "m") }
  }

  /// Only a map's last section may play for ever: a map with another endless one stops the
  /// program (no parser makes one).
  @Test func onlyTheLastSectionMayBeEndless() async {
    await #expect(processExitsWith: .failure) {
      let endless = TempoMap.Section(bars: nil, meter: .fourFour, tempo: .steady(120))
      let two = TempoMap.Section(bars: 2, meter: .fourFour, tempo: .steady(120))
      _ = TempoMap(sections: [endless, two])
    }
  }

  /// A swing is taken at both ends of its range, 50 (straight) and 75 percent.
  @Test func swingIsTakenAtBothEnds() throws {
    let map = try TempoMapParser.parse("1 120 sub=2 swing=50\n1 120 sub=2 swing=75\n", source: "m")
    #expect(map.sections.map(\.subdivision) == [try Subdivision(2, swing: 0.5), try Subdivision(2, swing: 0.75)])
  }

  /// What klick lacks, written after its columns: subdivision, swing, gaps, a count-in, loops
  /// and a step trainer.
  @Test func readsTheSettingsKlickLacks() throws {
    let map = try TempoMapParser.parse(
      """
      intro: 2 120 sub=3 count-in=2
      groove: 4 6/8 90 X..x.. swing=66.7 gap=3:1
      climb: 4 100 step=5 to=110 loop=2
      fill: 1 100 gap=50%:beats sub=4 swing=60
      """, source: "ext", seed: 7)

    #expect(map.countIn == .bars(2))
    #expect(map.sections[0].subdivision == (try Subdivision(3)))
    #expect(map.sections[1].subdivision == (try Subdivision(2, swing: 2.0 / 3)))
    #expect(map.sections[1].gap == .bars(play: 3, mute: 1))
    // Three steps, played twice; only the first keeps the label.
    #expect(map.sections[2...7].map(\.tempo) == [100, 105, 110, 100, 105, 110].map { .steady($0) })
    #expect(map.sections[2...7].map(\.label) == ["climb", nil, nil, nil, nil, nil])
    #expect(map.sections[2...7].allSatisfy { $0.bars == 4 })
    #expect(map.sections[8].gap == .random(percent: 50, byBeat: true, seed: 7))
    #expect(map.sections[8].subdivision == (try Subdivision(4, swing: 0.6)))
    #expect(map.sections.count == 9)
  }

  /// A map of a million bars is read at once: its sections are counted, never its beats.
  @Test func readsAMillionBarsWithoutListingThem() throws {
    let map = try TempoMapParser.parse("1000000 4/4 120\n", source: "long")
    #expect(map.beatCount == 4_000_000)
    #expect(map.duration == 2_000_000)
    #expect(map.seconds(toBeat: 3_999_999) == 1_999_999.5)
  }
}
