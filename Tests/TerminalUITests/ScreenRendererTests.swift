import MetronomeCore
import TerminalUI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ScreenRendererTests {
  let playing = DisplayState(
    tempoText: "120 BPM", signature: "4/4", beatsPerBar: 4, isPlaying: true,
    heard: DisplayState.HeardBeat(bar: 3, beat: 1, level: .strong), output: "ALSA 'default'",
    latencyMilliseconds: 21.33, underruns: 0)

  @Test func showsEverythingIn80By24() {
    let lines = ScreenRenderer(width: 80, height: 24, colors: false).lines(for: playing)
    #expect(lines[0] == " metronome  120 BPM  4/4  playing")
    #expect(lines[2] == " >X< [x] [x] [x] ")
    #expect(lines[4] == " bar 3  beat 1 of 4")
    #expect(lines[6] == " ALSA 'default' · latency 21.33 ms · underruns 0")
    #expect(lines.dropFirst(7).joined(separator: " ").contains("Space play/pause"))
    #expect(lines.allSatisfy { $0.count <= 80 })
  }

  @Test func regularBeatsLightDifferentlyFromTheAccent() {
    var state = playing
    state.heard = DisplayState.HeardBeat(bar: 3, beat: 2, level: .normal)
    #expect(ScreenRenderer(width: 80, height: 24, colors: false).lines(for: state)[2] == " [X] >x< [x] [x] ")
    let colored = ScreenRenderer(width: 80, height: 24, colors: true).lines(for: state)[2]
    #expect(colored.contains("\u{1B}[1;32m[x]\u{1B}[0m"))
    #expect(ScreenRenderer(width: 80, height: 24, colors: true).lines(for: playing)[2].contains("\u{1B}[1;31m[X]"))
  }

  @Test func pausedShowsNoLitBeat() {
    var state = playing
    state.isPlaying = false
    let lines = ScreenRenderer(width: 80, height: 24, colors: false).lines(for: state)
    #expect(lines[0].hasSuffix("paused"))
    #expect(lines[2] == " [X] [x] [x] [x] ")
  }

  @Test func eachCellShowsItsBeatsLevelAndASilentBeatLightsDim() {
    var state = playing
    state.signature = "6/8"
    state.beatsPerBar = 6
    state.pattern = [.strong, .silent, .weak, .normal, .silent, .weak]
    state.heard = DisplayState.HeardBeat(bar: 1, beat: 2, level: .silent)
    #expect(ScreenRenderer(width: 80, height: 24, colors: false).lines(for: state)[2] == " [X] >.< [o] [x] [.] [o] ")
    #expect(ScreenRenderer(width: 80, height: 24, colors: true).lines(for: state)[2].contains("\u{1B}[2m[.]\u{1B}[0m"))
    // A pattern of another length (the meter changed under it) shows the standard levels.
    state.beatsPerBar = 3
    #expect(ScreenRenderer(width: 80, height: 24, colors: false).lines(for: state)[2] == " [X] >x< [x] ")
  }

  @Test func narrowTerminalsWrapAndClip() throws {
    var state = playing
    state.signature = "32/32"
    state.beatsPerBar = 32
    let lines = ScreenRenderer(width: 30, height: 24, colors: false).lines(for: state)
    #expect(lines.allSatisfy { $0.count <= 30 })
    #expect(lines[2].hasPrefix(" >X< [x]"))
    #expect(lines.filter { $0.contains("[x]") }.count == 5)
    let help = lines.joined(separator: " ")
    for item in KeyBindings.helpItems { #expect(help.contains(item)) }
  }

  @Test func neverTallerThanTheTerminal() {
    #expect(ScreenRenderer(width: 20, height: 5, colors: false).lines(for: playing).count == 5)
  }

  /// A programme adds the song, the section and what comes next under the position; the header
  /// says count-in and loop; a bar a gap mutes is counted, lit dim (or `-x-` without colour).
  @Test func showsWhereAProgramIsAndDimsAMutedBar() {
    var state = playing
    state.song = "Ballad (2/3)"
    state.section = "verse (1/4) · bar 3 of 8"
    state.upcoming = "next: chorus 140 BPM 4/4 in 6 bars"
    state.isLooping = true
    state.isCountIn = true
    state.heard = DisplayState.HeardBeat(bar: 3, beat: 2, level: .silent, isGapMuted: true)
    let lines = ScreenRenderer(width: 80, height: 24, colors: false).lines(for: state)
    #expect(lines[0] == " metronome  120 BPM  4/4  playing  loop  count-in")
    #expect(lines[2] == " [X] -x- [x] [x] ")
    #expect(
      lines[4...7] == [
        " bar 3  beat 2 of 4  (gap)", " Ballad (2/3)", " verse (1/4) · bar 3 of 8",
        " next: chorus 140 BPM 4/4 in 6 bars",
      ])
    #expect(ScreenRenderer(width: 80, height: 24, colors: true).lines(for: state)[2].contains("\u{1B}[2m[x]\u{1B}[0m"))
  }
}

/// The standard display's edges: the ticks of a divided beat, the second voice, skipped beats,
/// how the cells and the keys wrap, and a terminal exactly as tall as the display.
@Suite(.timeLimit(.minutes(1)))
struct ScreenRendererEdgeTests {
  let playing = DisplayState(
    tempoText: "120 BPM", signature: "4/4", beatsPerBar: 4, isPlaying: true,
    heard: DisplayState.HeardBeat(bar: 3, beat: 1, level: .strong), output: "silent")

  @Test func aDividedBeatShowsItsTicksAndTheSecondVoiceItsClicks() throws {
    var state = playing
    state.subdivision = try Subdivision(2)
    state.heard = DisplayState.HeardBeat(bar: 3, beat: 2, level: .normal, subdivision: 1)
    state.polyrhythm = 3
    state.heardPolyrhythmClick = 0
    let lines = ScreenRenderer(width: 80, height: 24, colors: false).lines(for: state)
    #expect(lines[0] == " metronome  120 BPM  4/4  ×2  3:4  playing")
    #expect(lines[4] == " bar 3  beat 2 of 4  ·•  against 3: •··")
    (state.isPlaying, state.heard) = (false, nil)
    #expect(
      ScreenRenderer(width: 80, height: 24, colors: false).lines(for: state)[4] == " bar –  beat –  against 3: ···")
  }

  @Test func skippedBeatsAreCountedOnTheStatusLine() {
    var state = playing
    #expect(
      ScreenRenderer(width: 80, height: 24, colors: false).lines(for: state)[6] == " silent · latency – · underruns 0")
    state.skippedBeats = 1
    #expect(
      ScreenRenderer(width: 80, height: 24, colors: false).lines(for: state)[6]
        == " silent · latency – · underruns 0 · skipped 1")
  }

  /// A row holds as many cells as fit the width, and a bar of one beat is one cell.
  @Test(arguments: [5, 8, 9, 11, 12, 13, 40])
  func theCellsWrapToTheWidth(width: Int) {
    var state = playing
    state.beatsPerBar = 9
    let rows = ScreenRenderer(width: width, height: 40, colors: false).lines(for: state).filter { $0.contains("[x]") }
    let perRow = rows.first.map { $0.split(separator: " ").count } ?? 0
    #expect(rows.allSatisfy { $0.trimmingSuffix().count <= width }, "\(rows)")
    #expect(perRow == max(1, (width - 1) / 4), "\(rows)")
    state.beatsPerBar = 1
    state.pattern = [.strong]
    #expect(ScreenRenderer(width: 80, height: 24, colors: false).lines(for: state)[2] == " >X< ")
  }

  /// The keys wrap at the width, items joined by " · ", none split.
  @Test func theKeysWrapBetweenItems() {
    var state = playing
    state.keyHelp = ["aaaa", "bbbb", "cccc"]
    let lines = ScreenRenderer(width: 12, height: 24, colors: false).lines(for: state)
    #expect(Array(lines.suffix(2)) == [" aaaa · bbbb", " cccc"])
    #expect(ScreenRenderer(width: 19, height: 24, colors: false).lines(for: state).last == " aaaa · bbbb · cccc")
    #expect(
      ScreenRenderer(width: 18, height: 24, colors: false).lines(for: state).suffix(2) == [" aaaa · bbbb", " cccc"])
  }

  /// A terminal exactly as tall as the display keeps its blank lines.
  @Test func aTerminalAsTallAsTheDisplayKeepsItsBlankLines() {
    let all = ScreenRenderer(width: 200, height: 100, colors: false).lines(for: playing)
    #expect(ScreenRenderer(width: 200, height: all.count, colors: false).lines(for: playing) == all)
    #expect(ScreenRenderer(width: 0, height: 0, colors: false).lines(for: playing) == [" "])
  }
}

extension String {
  /// The string without its trailing spaces.
  fileprivate func trimmingSuffix() -> Substring { self[..<(lastIndex { $0 != " " }.map(index(after:)) ?? startIndex)] }
}
