import MetronomeCore
import TerminalUI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct BeatEventFormatTests {
  let beat: Beat

  init() throws {
    beat = Beat(
      count: 8, bar: 3, beatInBar: 1, meter: try Meter(7, 8), tempo: try Tempo(bpm: 97.5), frame: 118_154,
      sampleRate: .standard)
  }

  @Test func textLineHasTimeBarBeatAndAccent() {
    #expect(BeatEventFormat.text.line(for: beat) == "2.461542 bar 3 beat 1 accent")
  }

  @Test func aSubdivisionsClickSaysWhichItIs() throws {
    let click = Beat(
      count: 8, bar: 3, beatInBar: 1, meter: try Meter(7, 8), tempo: try Tempo(bpm: 97.5), frame: 128_000,
      sampleRate: .standard, level: .normal, subdivision: 2)
    #expect(BeatEventFormat.text.line(for: click) == "2.666667 bar 3 beat 1 sub 2 regular")
    let line = BeatEventFormat.ndjson.line(for: click)
    #expect(line.contains(#""beat":1,"sub":2,"voice":"beats","accent":false,"level":"normal""#))
  }

  @Test func theSecondVoicesClickSaysWhichOfTheBarsItIs() throws {
    let click = beat.click(at: 128_000, level: .normal, voice: .polyrhythm(click: 1, of: 3))
    #expect(BeatEventFormat.text.line(for: click) == "2.666667 bar 3 beat 1 poly 2/3 regular")
    #expect(BeatEventFormat.ndjson.line(for: click).contains(#""sub":0,"voice":"polyrhythm","poly":2,"of":3,"#))
  }

  @Test func ndjsonLineIsOneObject() {
    #expect(
      BeatEventFormat.ndjson.line(for: beat)
        == #"{"time":2.4615416666666667,"frame":118154,"bar":3,"beat":1,"sub":0,"voice":"beats","accent":true,"level":"strong","tempo":97.5,"meter":"7/8"}"#
    )
  }

  /// A beat of a setlist's song and a map's section says which, its bar in the section and its
  /// tempo; a muted one says so.
  @Test func aBeatOfASongsSectionSaysWhereItIs() throws {
    let placed = Beat(
      count: 8, bar: 3, beatInBar: 1, meter: try Meter(7, 8), tempo: try Tempo(bpm: 97.5), frame: 118_154,
      sampleRate: .standard, level: .silent, section: Beat.Section(index: 2, barInSection: 1), isGapMuted: true,
      song: 1)
    #expect(
      BeatEventFormat.text.line(for: placed) == "2.461542 bar 3 beat 1 silent gap song 2 section 3 bar 1 tempo 97.5")
    #expect(BeatEventFormat.ndjson.line(for: placed).hasSuffix(#""gap":true,"song":1,"section":2,"sectionBar":1}"#))
  }
}
