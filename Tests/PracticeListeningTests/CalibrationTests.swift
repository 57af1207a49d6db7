import PracticeListening
import Testing

@Suite(.timeLimit(.minutes(1))) struct CalibrationTests {
  /// Offsets at one-second steps.
  private func statistics(_ milliseconds: [Double]) -> HitStatistics? {
    HitStatistics(offsets: milliseconds.enumerated().map { (Double($0.offset), $0.element) }, tolerance: 20)
  }

  @Test func thirtyTwoSteadyHitsCalibrateToTheirMedian() throws {
    // 31 hits 10 ms late and one stray 100 ms late: the median, not the mean, is the offset.
    let hits = Array(repeating: 10.0, count: 31) + [100]
    #expect(try Calibration.offset(from: statistics(hits)).get() == 10)
    #expect(abs((statistics(hits)?.mean ?? 0) - 12.8125) < 1e-9)
  }

  @Test func tooFewOrTooSpreadHitsAreRefusedSayingWhy() throws {
    #expect(
      Calibration.offset(from: statistics(Array(repeating: 5, count: 31)))
        == .failure(
          CalibrationError(
            "calibration needs 32 hits and got 31: nothing was saved; play along until it ends by itself")))
    #expect(
      Calibration.offset(from: nil)
        == .failure(
          CalibrationError("calibration needs 32 hits and got 0: nothing was saved; play along until it ends by itself")
        ))
    // Half at -31, half at +31: a deviation of 31 ms.
    let spread = Array(repeating: -31.0, count: 16) + Array(repeating: 31.0, count: 16)
    #expect(
      Calibration.offset(from: statistics(spread))
        == .failure(
          CalibrationError(
            "the hits spread 31.0 ms (standard deviation), more than 30.0: no one offset says where you play, so"
              + " nothing was saved; calibrate again, as steadily as you can")))
    let justTrusted = Array(repeating: -30.0, count: 16) + Array(repeating: 30.0, count: 16)
    #expect(try Calibration.offset(from: statistics(justTrusted)).get() == 0)
  }

  @Test func theSavedLineSaysMedianMeanAndSpreadAndWhatItIsFor() throws {
    let steady = try #require(statistics(Array(repeating: 12.25, count: 32)))
    #expect(
      Calibration.saying(steady, from: .midi, savedAt: "/home/p/.config/metronome/calibration")
        == "your notes came 12.3 ms after the clicks (the median of 32; mean 12.3, standard deviation 0.0); later"
        + " runs with --listen take 12.3 ms off every note (--input-offset overrides it); saved in"
        + " /home/p/.config/metronome/calibration")
    #expect(Calibration.saying(steady, from: .keys, savedAt: "f").contains("the keyboard's and the terminal's delay"))
    let early = try #require(statistics(Array(repeating: -4, count: 32)))
    #expect(Calibration.saying(early, from: .keys, savedAt: "f").hasPrefix("your keys came 4.0 ms before the clicks"))
  }

  @Test func theFileKeepsEachSourcesOffsetAndSaysWhereItIsWrong() throws {
    let file = try CalibrationFile(parsing: "# saved\nmidi 12.5\n\nkeys -3 # typed\n", source: "cal")
    #expect(file.offsets == [.midi: 12.5, .keys: -3])
    let updated = file.setting(.midi, to: 7.25).setting(.jackRoundTrip, to: 26.6667)
    #expect(
      updated.text
        == "# metronome calibrate: the milliseconds taken off each hit, the median of a tap-along, or the round trip"
        + " of calibrate --loopback\nmidi 7.250\nkeys -3.000\njack-round-trip 26.667\n"
    )
    #expect(try CalibrationFile(parsing: updated.text, source: "cal").offsets[.jackRoundTrip] == 26.667)
    #expect(CalibrationFile().setting(.keys, to: 1).text.hasSuffix("\nkeys 1.000\n"))
    // The range's ends are in it.
    #expect(
      try CalibrationFile(parsing: "midi 1000\nkeys -1000\n", source: "cal").offsets == [.midi: 1_000, .keys: -1_000])
    for bad in [
      "midi", "midi x", "pedal 3", "midi 3 4", "midi nan", "midi 1001", "keys -inf", "midi 3 2026-1-25",
      "midi 3 2026-11-25 x", "midi 3 2026/11/25", "midi 1000.001", "keys -1000.001", "midi 3 ٢٠٢٦-١١-٢٥",
      "midi 3 2026-1a-25",
    ] {
      #expect(throws: CalibrationError.self) { try CalibrationFile(parsing: "# ok\n\(bad)\n", source: "cal") }
    }
    #expect(
      throws: CalibrationError(
        "cal:2: error: 'pedal 3' is not 'midi MS', 'keys MS' or 'jack-round-trip MS' (at most 1000 ms either way),"
          + " then the day it was made (YYYY-MM-DD) or nothing: calibrate again, or remove the line")
    ) { try CalibrationFile(parsing: "# ok\npedal 3\n", source: "cal") }
  }

  /// A calibration keeps the day it was made, read back as written; one saved anew without a day
  /// (or with one not a day) forgets the old day.
  @Test func theFileKeepsTheDayEachCalibrationWasMade() throws {
    let file = try CalibrationFile(parsing: "jack-round-trip 26.667 2026-11-25\nmidi 12.5\n", source: "cal")
    #expect(file.offsets == [.jackRoundTrip: 26.667, .midi: 12.5])
    #expect(file.days == [.jackRoundTrip: "2026-11-25"])
    let updated = file.setting(.midi, to: 7.25, on: "2026-12-01")
    #expect(updated.text.hasSuffix("\nmidi 7.250 2026-12-01\njack-round-trip 26.667 2026-11-25\n"), "\(updated.text)")
    #expect(try CalibrationFile(parsing: updated.text, source: "cal") == updated)
    #expect(updated.setting(.jackRoundTrip, to: 30).days == [.midi: "2026-12-01"])
    #expect(updated.setting(.jackRoundTrip, to: 30, on: "yesterday").days == [.midi: "2026-12-01"])
  }
}
