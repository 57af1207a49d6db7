import AudioListening
import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(5))) struct LoopbackProbeTests {
  private let rate = SampleRate.standard

  /// Plays the probe through a path of `delay` frames at `gain` with `noise` added (a seeded
  /// hiss) in cycles of 256, and measures it.
  private func measure(delay: Int, gain: Float, noise: Float = 0, jitterAt burst: Int? = nil, slip: Int = 40)
    -> Result<LoopbackMeasurement, LoopbackError>
  {
    let probe = LoopbackProbe(sampleRate: rate)
    var played: [Float] = []
    var frame = 0
    var hiss: UInt32 = 77
    while !probe.isDone {
      var output = [Float](repeating: 0, count: 256)
      output.withUnsafeMutableBufferPointer { probe.play(into: $0, from: frame) }
      played += output
      let input = (frame..<(frame + 256)).map { index -> Float in
        hiss = hiss &* 1_664_525 &+ 1_013_904_223
        // A path that slips by `slip` frames from the given burst on (29 312 frames apart).
        let slip = burst.map { index >= $0 * 29_312 ? slip : 0 } ?? 0
        let source = index - delay - slip
        return (source >= 0 ? gain * played[source] : 0) + noise * (Float(hiss) / Float(UInt32.max) - 0.5)
      }
      input.withUnsafeBufferPointer { probe.record($0, from: frame) }
      frame += 256
    }
    return probe.roundTrip()
  }

  @Test func aPathsDelayIsFoundToTheFrameWhateverItsGainOrSign() throws {
    for (delay, gain) in [(0, Float(1)), (1_280, 0.5), (1_301, -0.2), (23_999, 0.05)] {
      let found = try measure(delay: delay, gain: gain).get()
      #expect(found.frames == delay)
      #expect(abs(found.gain - gain) < 0.01 * abs(gain))
    }
  }

  @Test func aBurstUnderHissIsStillFound() throws {
    // The hiss at 0.2 peak to peak against bursts at 0.05: 12 dB below it.
    #expect(try measure(delay: 4_321, gain: 0.1, noise: 0.2).get().frames == 4_321)
  }

  @Test func silenceOrAPathThatSlipsIsRefused() {
    #expect(measure(delay: 100, gain: 0) == .failure(.nothingHeard))
    #expect(measure(delay: 100, gain: 0.5, jitterAt: 3) == .failure(.unsteady(burst: 4, frames: 40)))
  }

  /// One delay means to the frame: a last burst heard a frame or two off the others is refused.
  @Test func aBurstAFrameOrTwoOffIsRefused() {
    for slip in [1, 2, -1, -2] {
      #expect(
        measure(delay: 2_000, gain: 0.5, jitterAt: 5, slip: slip) == .failure(.unsteady(burst: 6, frames: slip)),
        "\(slip)")
    }
  }
}
