import MetronomeCore
import PropertyBased
import TerminalUI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ScreenFlashesTests {
  /// The flashes' start and end times over `seconds` of beats at `bpm` in `meter`, each beat
  /// sounding unless `pattern` silences it.
  private func flashes(bpm: Double, meter: Meter, seconds: Double, silent: Set<Int> = []) -> [(Double, Double)] {
    var flashes = ScreenFlashes()
    let spacing = Tempo.standard.secondsPerBeat(denominator: meter.denominator) * 120 / bpm
    var lit: [(Double, Double)] = []
    var count = 0
    while Double(count) * spacing < seconds {
      let beatInBar = count % meter.numerator + 1
      let at = Double(count) * spacing
      if let length = flashes.flash(
        at: at, beatSpacing: spacing, beatInBar: beatInBar, sounds: !silent.contains(beatInBar))
      {
        lit.append((at, at + length))
      }
      count += 1
    }
    return lit
  }

  @Test func upTo180InFourFourEveryBeatFlashesForHalfItsSpacingAtMostAFifteenth() throws {
    let at120 = flashes(bpm: 120, meter: try Meter(4, 4), seconds: 4)
    #expect(at120.map(\.0) == (0..<8).map { Double($0) * 0.5 })
    #expect(at120.allSatisfy { abs($0.1 - $0.0 - 0.15) < 1e-9 })
    let at180 = flashes(bpm: 180, meter: try Meter(4, 4), seconds: 4)
    #expect(at180.count == 12)
    #expect(abs(at180[0].1 - 0.15) < 1e-9)
  }

  @Test func above180OnlyBarOneFlashes() throws {
    let at240 = flashes(bpm: 240, meter: try Meter(4, 4), seconds: 4)
    #expect(at240.map(\.0) == [0, 1, 2, 3])
    #expect(abs(at240[0].1 - 0.125) < 1e-9, "half of 0.25 s")
    #expect(flashes(bpm: 181, meter: try Meter(4, 4), seconds: 4).count == 4)
  }

  /// In 1/4 at 300 every beat is bar one: a flash is kept only a third of a second after the last.
  @Test func barOnesCloserThanAThirdOfASecondFlashLess() throws {
    let starts = flashes(bpm: 300, meter: try Meter(1, 4), seconds: 3).map(\.0)
    #expect(starts.count == 8)
    #expect(zip(starts, starts.dropFirst()).allSatisfy { $1 - $0 >= 0.4 - 1e-9 })
  }

  @Test func aBeatThatDoesNotSoundDoesNotFlash() throws {
    let starts = flashes(bpm: 120, meter: try Meter(4, 4), seconds: 2, silent: [2, 4]).map(\.0)
    #expect(starts == [0, 1])
    #expect(flashes(bpm: 240, meter: try Meter(4, 4), seconds: 2, silent: [1]).isEmpty)
  }

  /// WCAG 2.3.1: at any tempo and meter, no more than three flashes begin in any second, and
  /// each ends before the next begins.
  @Test func neverMoreThanThreeFlashesInAnySecond() async {
    await propertyCheck(input: Gen.double(in: 20...1000), Gen.int(in: 1...16), Gen.int(in: 0...5).map { 1 << $0 }) {
      bpm, numerator, denominator in
      guard let meter = try? Meter(numerator, denominator) else { return }
      let lit = flashes(bpm: bpm, meter: meter, seconds: 6)
      for (index, flash) in lit.enumerated() {
        let inTheSecond = lit[index...].prefix { $0.0 < flash.0 + 1 }
        #expect(inTheSecond.count <= 3, "\(bpm) BPM \(meter): \(lit.map(\.0))")
        if index + 1 < lit.count { #expect(flash.1 <= lit[index + 1].0) }
      }
    }
  }
}
