import MetronomeCore
import TerminalUI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct BigDisplayTests {
  let playing = DisplayState(
    tempoText: "120 BPM", signature: "4/4", beatsPerBar: 4, isPlaying: true,
    heard: DisplayState.HeardBeat(bar: 3, beat: 1, level: .strong), output: "silent")

  /// The rows the digits take: those with a block in them.
  private func digitRows(_ lines: [String]) -> [String] {
    lines.filter { $0.contains { "█▓▒░".contains($0) } }
  }

  @Test(arguments: [(80, 24), (200, 60), (132, 43)])
  func theDigitsFillTheTerminal(width: Int, height: Int) {
    let lines = ScreenRenderer(width: width, height: height, colors: false).bigLines(for: playing)
    #expect(lines.count == height)
    #expect(lines.allSatisfy { $0.count <= width })
    let digits = digitRows(lines)
    #expect(digits.count >= height / 2, "the digit takes \(digits.count) of \(height) rows")
    let inked = digits.map { $0.count - $0.prefix { $0 == " " }.count }.max() ?? 0
    #expect(inked >= width / 8, "the digit is \(inked) cells wide")
    #expect(lines[0] == " 120 BPM  4/4  playing  bar 3")
    #expect(lines[height - 2] == " >X< [x] [x] [x] ")
  }

  /// The number changes with each beat, and its blocks mark the beat's level: the accent whole.
  @Test func eachBeatDrawsItsOwnNumberInItsLevelsBlocks() {
    let renderer = ScreenRenderer(width: 80, height: 24, colors: false)
    var drawings: [[String]] = []
    for (beat, level) in [(1, AccentLevel.strong), (2, .normal), (3, .weak), (4, .silent)] {
      var state = playing
      state.heard = DisplayState.HeardBeat(bar: 3, beat: beat, level: level)
      drawings.append(digitRows(renderer.bigLines(for: state)))
    }
    #expect(Set(drawings).count == 4)
    for (drawing, block) in zip(drawings, ["█", "▓", "▒", "░"]) {
      #expect(drawing.allSatisfy { $0.contains(block) }, "\(block): \(drawing)")
    }
    var muted = playing
    muted.heard = DisplayState.HeardBeat(bar: 3, beat: 1, level: .strong, isGapMuted: true)
    #expect(digitRows(renderer.bigLines(for: muted)).allSatisfy { $0.contains("░") })
  }

  @Test func theDigitIsTheBeatsNumberAsTheGlyphsDrawIt() {
    var state = playing
    state.beatsPerBar = 16
    state.heard = DisplayState.HeardBeat(bar: 1, beat: 12, level: .normal)
    let rows = digitRows(ScreenRenderer(width: 80, height: 24, colors: false).bigLines(for: state))
    let scale = BigDigits.scale(characters: 2, width: 78, height: 19)
    let expected = BigDigits.rows("12", scale: scale ?? (1, 1), fill: "▓")
    let centred = String(repeating: " ", count: (80 - (expected.first?.count ?? 0)) / 2)
    #expect(rows == expected.map { centred + $0 })
    #expect(expected.count == 14 && expected.first?.count == 44, "two digits at 4 × 2 cells a dot")
  }

  @Test func pausedShowsADashAndNoLitCell() {
    var state = playing
    state.isPlaying = false
    let lines = ScreenRenderer(width: 80, height: 24, colors: false).bigLines(for: state)
    let rows = digitRows(lines)
    #expect(!rows.isEmpty && Set(rows).count == 1, "a dash is one row repeated: \(rows)")
    #expect(lines[22] == " [X] [x] [x] [x] ")
    #expect(lines[0] == " 120 BPM  4/4  paused")
  }

  /// A flash lights every cell of the screen: every line in reverse video, padded to the width.
  @Test func aFlashLightsTheWholeScreen() {
    var state = playing
    state.isFlashing = true
    for colors in [false, true] {
      let lines = ScreenRenderer(width: 80, height: 24, colors: colors).bigLines(for: state)
      let start = colors ? "\u{1B}[1;7;31m" : "\u{1B}[7m"
      #expect(lines.count == 24)
      for line in lines {
        #expect(line.hasPrefix(start) && line.hasSuffix("\u{1B}[0m"))
        #expect(line.dropFirst(start.count).dropLast(4).count == 80, "\(line)")
      }
    }
    state.heard = DisplayState.HeardBeat(bar: 3, beat: 2, level: .normal)
    #expect(ScreenRenderer(width: 80, height: 24, colors: true).bigLines(for: state)[0].hasPrefix("\u{1B}[1;7;32m"))
  }

  @Test func inColourTheAccentIsRedAndTheOthersGreen() {
    let renderer = ScreenRenderer(width: 80, height: 24, colors: true)
    #expect(digitRows(renderer.bigLines(for: playing)).allSatisfy { $0.contains("\u{1B}[1;31m") })
    var state = playing
    state.heard = DisplayState.HeardBeat(bar: 3, beat: 2, level: .normal)
    #expect(digitRows(renderer.bigLines(for: state)).allSatisfy { $0.contains("\u{1B}[1;32m") })
  }

  @Test func aTerminalTooSmallForDigitsShowsTheNumberAsText() {
    let lines = ScreenRenderer(width: 20, height: 8, colors: false).bigLines(for: playing)
    #expect(lines.count == 8)
    #expect(lines.contains(" beat 1"))
    #expect(digitRows(lines).isEmpty)
  }

  /// The foot names where a programme is, or else the keys.
  @Test func theFootShowsTheSectionOrElseTheKeys() {
    var state = playing
    #expect(
      ScreenRenderer(width: 80, height: 24, colors: false).bigLines(for: state)[23].hasPrefix(" Space play/pause"))
    state.section = "verse (2/5) · bar 3 of 12"
    #expect(
      ScreenRenderer(width: 80, height: 24, colors: false).bigLines(for: state)[23] == " verse (2/5) · bar 3 of 12")
  }
}

/// The sizes and edges of the big display: how large the digits are drawn, where they stand, and
/// what a terminal too small for them shows.
@Suite(.timeLimit(.minutes(1)))
struct BigDisplayEdgeTests {
  let playing = DisplayState(
    tempoText: "120 BPM", signature: "4/4", beatsPerBar: 4, isPlaying: true,
    heard: DisplayState.HeardBeat(bar: 3, beat: 1, level: .strong), output: "silent")

  /// Each glyph is a 5 × 7 grid of dots, one dot's gap between characters, each dot `across` ×
  /// `down` cells.
  @Test func theGlyphsAreDrawnDotForDot() {
    #expect(
      BigDigits.rows("1", scale: (1, 1), fill: "#") == ["  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "])
    let ten = BigDigits.rows("10", scale: (2, 2), fill: "#")
    #expect(ten.count == 14 && ten.allSatisfy { $0.count == 22 })
    #expect(ten[0] == "    ##        ######  ")
    #expect(ten[0] == ten[1])
  }

  /// As tall as the rows allow, twice as wide as tall where the width allows, nil when a dot has
  /// no cell.
  @Test func theScaleFitsTheArea() {
    #expect(BigDigits.scale(characters: 1, width: 78, height: 19).map { [$0.across, $0.down] } == [4, 2])
    #expect(BigDigits.scale(characters: 2, width: 30, height: 70).map { [$0.across, $0.down] } == [2, 10])
    #expect(BigDigits.scale(characters: 2, width: 11, height: 7).map { [$0.across, $0.down] } == [1, 1])
    #expect(BigDigits.scale(characters: 1, width: 5, height: 7).map { [$0.across, $0.down] } == [1, 1])
    #expect(BigDigits.scale(characters: 2, width: 10, height: 7) == nil)
    #expect(BigDigits.scale(characters: 1, width: 4, height: 7) == nil)
    #expect(BigDigits.scale(characters: 1, width: 5, height: 6) == nil)
  }

  /// The digits keep a cell free at each side and stand in the middle of the rows left to them.
  @Test(arguments: [7, 8, 11, 12, 40, 81])
  func theDigitsKeepAMarginAndStandInTheMiddle(width: Int) {
    let lines = ScreenRenderer(width: width, height: 60, colors: false).bigLines(for: playing)
    let digits = lines.indices.filter { lines[$0].contains("█") }
    for row in digits {
      let inked = lines[row].indices.filter { lines[row][$0] == "█" }.map {
        lines[row].distance(from: lines[row].startIndex, to: $0)
      }
      #expect((inked.min() ?? 0) >= 1 && (inked.max() ?? width) <= width - 2, "width \(width): \(lines[row])")
    }
    // The digits' rows come after the header and a blank line, and before a blank line, the
    // cells and the foot: as many rows free above the digits as below them.
    let cellRows = lines.filter { $0.contains("[X]") || $0.contains("[x]") || $0.contains(">X<") }.count
    let above = (digits.first ?? 0) - 2
    let below = (60 - 3 - cellRows) - (digits.last ?? 0)
    #expect(abs(above - below) <= 1, "width \(width): \(above) rows above, \(below) below")
  }

  @Test func aTerminalWithRoomForTheDigitsLineOnlyShowsTheNumberAsText() {
    let lines = ScreenRenderer(width: 80, height: 6, colors: false).bigLines(for: playing)
    #expect(lines.prefix(5) == [" 120 BPM  4/4  playing  bar 3", "", " beat 1", "", " >X< [x] [x] [x] "])
    #expect(lines.count == 6 && lines[5].hasPrefix(" Space play/pause"))
    #expect(ScreenRenderer(width: 80, height: 3, colors: false).bigLines(for: playing).count == 3)
    #expect(ScreenRenderer(width: 0, height: 0, colors: false).bigLines(for: playing) == [" "])
  }

  /// The foot shows the first of the listening's lines, not the others.
  @Test func theFootShowsTheFirstListeningLine() {
    var state = playing
    state.listening = ["early 3 ms", "mean 2 ms"]
    #expect(ScreenRenderer(width: 80, height: 24, colors: false).bigLines(for: state)[23] == " early 3 ms")
  }
}
