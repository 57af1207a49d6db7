import MetronomeCore
import PracticeListening
import Testing

/// `--input-offset`'s sign and rounding, for the JACK port and the ALSA sequencer alike.
@Suite(.timeLimit(.minutes(1))) struct NotePlacementTests {
  /// A positive offset is a delay taken off: the note is placed that much earlier; a negative one
  /// later; the latencies it came through are taken off as well.
  @Test func aPositiveOffsetPlacesANoteEarlier() {
    let late = NotePlacement(inputOffset: 10, sampleRate: .standard)
    #expect(late.offsetFrames == 480)
    #expect(late.frame(arrivedOn: 48_000) == 47_520)
    #expect(late.frame(arrivedOn: 48_000, latency: 1_024) == 46_496)
    #expect(NotePlacement(inputOffset: -10, sampleRate: .standard).frame(arrivedOn: 48_000) == 48_480)
    #expect(NotePlacement(inputOffset: 0, sampleRate: .standard).frame(arrivedOn: 48_000, latency: 256) == 47_744)
  }

  /// The offset is rounded to the nearest frame at the run's rate, at the range's ends too.
  @Test func theOffsetIsRoundedToTheNearestFrame() throws {
    #expect(NotePlacement(inputOffset: 3.51, sampleRate: .standard).offsetFrames == 168)
    #expect(NotePlacement(inputOffset: 0.01, sampleRate: .standard).offsetFrames == 0)
    #expect(NotePlacement(inputOffset: -0.02, sampleRate: .standard).offsetFrames == -1)
    #expect(NotePlacement(inputOffset: 1_000, sampleRate: try SampleRate(44_100)).offsetFrames == 44_100)
    #expect(NotePlacement(inputOffset: -1_000, sampleRate: try SampleRate(96_000)).offsetFrames == -96_000)
  }
}
