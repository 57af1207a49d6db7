import MetronomeCore
import TerminalUI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct PlainNarrationTests {
  let playing = DisplayState(
    tempoText: "120 BPM", signature: "4/4", beatsPerBar: 4, isPlaying: true,
    heard: DisplayState.HeardBeat(bar: 1, beat: 1, level: .strong), output: "silent")

  @Test func theFirstLinesAreTheKeysAndTheStatus() {
    let lines = PlainNarration.lines(from: nil, to: playing)
    #expect(lines.count == 2)
    #expect(lines[0].hasPrefix("keys: Space play/pause, "))
    #expect(lines[1] == "120 BPM, 4/4, playing")
  }

  /// Beats going by are not told: only changes are.
  @Test func aBeatHeardTellsNothing() {
    var next = playing
    next.heard = DisplayState.HeardBeat(bar: 1, beat: 2, level: .normal)
    next.latencyMilliseconds = 12
    next.underruns = 1
    next.section = "verse (1/2) · bar 2 of 4"
    next.listening = ["early 3 ms"]
    #expect(PlainNarration.lines(from: playing, to: next).isEmpty)
  }

  @Test func eachChangeIsOneLine() throws {
    var next = playing
    next.tempoText = "130 BPM"
    #expect(PlainNarration.lines(from: playing, to: next) == ["130 BPM, 4/4, playing"])
    next.subdivision = try Subdivision(3)
    next.polyrhythm = 3
    next.isMuted = true
    next.isPlaying = false
    #expect(
      PlainNarration.lines(from: playing, to: next) == ["130 BPM, 4/4, clicks per beat 3, 3 against 4, paused, muted"])
    next.subdivision = try Subdivision(2)
    #expect(PlainNarration.lines(from: playing, to: next).first?.contains("clicks per beat 2") == true)
  }

  @Test func aSongASectionAndACountInAreTold() {
    var next = playing
    next.song = "Ballad (2/3)"
    next.sectionTitle = "verse (1/2)"
    next.isCountIn = true
    #expect(PlainNarration.lines(from: playing, to: next) == ["song Ballad (2/3)", "section verse (1/2)", "count-in"])
    var later = next
    later.isCountIn = false
    later.sectionTitle = "chorus (2/2)"
    #expect(PlainNarration.lines(from: next, to: later) == ["section chorus (2/2)"])
  }
}
