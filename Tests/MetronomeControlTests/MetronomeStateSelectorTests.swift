import MetronomeControl
import MetronomeCore
import Testing

/// The values the display reads, as pure selectors of the state: a state in, the text out.
@Suite(.timeLimit(.minutes(1)))
struct MetronomeStateSelectorTests {
  private func state(_ bpm: Double, _ numerator: Int, _ denominator: Int, cap: NumeratorCap = .denominator)
    -> MetronomeState
  {
    MetronomeState(
      tempo: Tempo(clamping: bpm) ?? .standard,
      meter: Meter(clampingNumerator: numerator, denominator: denominator, cap: cap),
      isPlaying: false, cap: cap)
  }

  @Test func tempoTextShowsFractionsOnlyWhenThereAreAny() {
    #expect(state(120, 4, 4).tempoText == "120 BPM")
    #expect(state(97.5, 4, 4).tempoText == "97.5 BPM")
  }

  @Test func meterTextsShowTheClampedNumerator() {
    var state = state(120, 24, 32)
    #expect([state.numeratorText, state.denominatorText, state.signatureText] == ["24", "32", "24/32"])
    state.apply(.stepDenominator(by: -1))
    #expect([state.numeratorText, state.denominatorText, state.signatureText] == ["16", "16", "16/16"])
  }

  @Test func theNumeratorsCapIsTheDenominatorUnlessRaised() {
    #expect(state(120, 4, 4).maxNumerator == 4)
    #expect(state(120, 4, 8).maxNumerator == 8)
    #expect(state(120, 4, 4, cap: NumeratorCap(atLeast: 7)).maxNumerator == 7)
    #expect(state(120, 4, 16, cap: NumeratorCap(atLeast: 7)).maxNumerator == 16)
  }

  @Test func theSecondVoiceSoundsUntilMuted() {
    var state = MetronomeState(tempo: .standard, meter: .fourFour, isPlaying: true, cap: .denominator, polyrhythm: 3)
    #expect(state.soundingPolyrhythm == 3)
    state.apply(.togglePolyrhythmMute)
    #expect(state.soundingPolyrhythm == nil)
  }

  @Test func noSongIsPlayingWithoutASetlist() {
    #expect(state(120, 4, 4).songPlaying == nil)
  }
}
