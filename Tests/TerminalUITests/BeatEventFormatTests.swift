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
}
