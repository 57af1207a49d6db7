import MetronomeControl
import MetronomeTesting
import TerminalUI
import Testing

/// The path from typed bytes to actions: decoded to keys, bound to commands, dispatched.
@Suite(.timeLimit(.minutes(1)))
struct KeyCommandActionTests {
  /// What the store receives when `bytes` are typed, at `seconds` on the beat clock.
  private func dispatched(_ bytes: String, atSeconds seconds: Double = 0) -> [MetronomeAction] {
    let store = MockStore(beatClockSeconds: seconds)
    for key in KeyDecoder().decode(Array(bytes.utf8)) {
      KeyBindings.command(for: key).map(store.perform)
    }
    return store.actions
  }

  @Test func arrowsAndSignsNudgeTheTempo() {
    let expected: [MetronomeAction] = [1, -1, 10, -10, 1, -1].map { .nudgeTempo(by: $0) }
    #expect(dispatched("\u{1B}[C\u{1B}[D\u{1B}[A\u{1B}[B+-") == expected)
  }

  @Test func meterKeysStepTheNumeratorAndDenominator() {
    let expected: [MetronomeAction] = [
      .stepNumerator(by: 1), .stepNumerator(by: -1), .stepDenominator(by: 1), .stepDenominator(by: -1),
    ]
    #expect(dispatched("][}{") == expected)
  }

  @Test func aTapIsTimedOnTheBeatClock() {
    #expect(dispatched("t", atSeconds: 2.5) == [.tapTempo(atSeconds: 2.5)])
  }

  @Test func rhythmAndProgramKeysDispatchTheirActions() {
    let expected: [MetronomeAction] = [
      .togglePlaying, .cycleLevel(ofBeat: 3), .stepSubdivision(by: 1), .stepSubdivision(by: -1),
      .stepSwing(by: 1.0 / 12), .stepSwing(by: -1.0 / 12), .toggleMute, .togglePolyrhythmMute,
      .jumpSection(by: 1), .jumpSection(by: -1), .jumpSection(by: 0), .toggleSectionLoop, .moveSong(by: 1),
      .moveSong(by: -1), .reset, .scaleTempo(by: 2), .scaleTempo(by: 0.5),
    ]
    #expect(dispatched(" 3sSwWmpnb0lNBr*/") == expected)
  }

  @Test func quitAndUnboundKeysDispatchNothing() {
    #expect(dispatched("q\u{1B}xyz").isEmpty)
  }
}
