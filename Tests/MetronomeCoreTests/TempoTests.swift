import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct TempoTests {
  @Test func acceptsFractionalTemposInRange() throws {
    #expect(try Tempo(bpm: 97.5).bpm == 97.5)
    #expect(try Tempo(bpm: 1).bpm == 1)
    #expect(try Tempo(bpm: 1000).bpm == 1000)
  }

  @Test(arguments: [0, -5, 0.999, 1000.5, 100_000, .infinity, -.infinity])
  func rejectsOutOfRange(bpm: Double) {
    #expect(throws: TempoError.outOfRange(bpm)) { try Tempo(bpm: bpm) }
  }

  @Test func rejectsNaN() {
    #expect(throws: TempoError.notANumber) { try Tempo(bpm: .nan) }
  }

  @Test func clampingKeepsValuesInRangeAndRefusesNaN() {
    #expect(Tempo(clamping: 0)?.bpm == 1)
    #expect(Tempo(clamping: 5000)?.bpm == 1000)
    #expect(Tempo(clamping: .infinity)?.bpm == 1000)
    #expect(Tempo(clamping: .nan) == nil)
  }

  @Test func textShowsAtMostTwoDecimals() throws {
    #expect(Tempo.standard.text == "120 BPM")
    #expect(try Tempo(bpm: 97.5).text == "97.5 BPM")
    #expect(try Tempo(bpm: 97.25).text == "97.25 BPM")
    #expect(try Tempo(bpm: 100.05).text == "100.05 BPM")
    #expect(try Tempo(bpm: 60.004).text == "60 BPM")
  }

  @Test func negativeNumbersKeepTheirSignInFront() {
    #expect(Tempo.format(-5.25) == "-5.25")
    #expect(Tempo.format(-5.2) == "-5.2")
    #expect(Tempo.format(-0.05) == "-0.05")
    #expect(Tempo.format(-0.001) == "0")
    #expect(TempoError.outOfRange(-5.25).description.hasPrefix("tempo -5.25 is out of range"))
  }

  @Test func beatLengthCountsQuarterNotes() throws {
    #expect(try Tempo(bpm: 200).secondsPerBeat(denominator: 8) == 0.15)
    #expect(try Tempo(bpm: 90).secondsPerBeat(denominator: 4) == 240.0 / 360)
  }

  @Test func errorsSayWhatToDo() {
    #expect(TempoError.outOfRange(0).description == "tempo 0 is out of range: use 1 to 1000 quarter notes per minute")
  }
}
