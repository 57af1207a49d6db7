import MetronomeCore
import Testing

/// `--step` as the core reads it: a change of tempo every so many bars or seconds.
@Suite(.timeLimit(.minutes(1)))
struct TempoStepTests {
  @Test func aStepIsBPMEveryBarsOrSeconds() throws {
    let bars = try TempoStep(parsing: "5/4")
    #expect(bars.change == 5 && bars.length == .bars(4) && bars.description == "5/4")
    let seconds = try TempoStep(parsing: "-2.5/30s")
    #expect(seconds.change == -2.5 && seconds.length == .seconds(30) && seconds.description == "-2.5/30s")
    #expect(try TempoStep(parsing: "5/\(TempoMapParser.maximumBars)").length == .bars(TempoMapParser.maximumBars))
    #expect(try TempoStep(parsing: "5/1").length == .bars(1))
    #expect(try TempoStep(parsing: "5/0.1s").length == .seconds(0.1))
  }

  @Test func anythingElseIsRefusedInItsWords() {
    for bad in [
      "5/0", "5/-1", "5/\(TempoMapParser.maximumBars + 1)", "5/0s", "5/-2s", "5/infs", "5/nans", "5", "5/4/4", "x/4",
      "5/s", "", "/4",
    ] {
      #expect(throws: TempoStepError(text: bad)) { try TempoStep(parsing: bad) }
    }
    #expect("\(TempoStepError(text: "5/x"))" == "'5/x' is not STEP/BARS or STEP/SECONDSs, such as 5/4 or 5/30s")
  }
}
