import AudioListening
import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(5))) struct LoopbackProbeTests {
  private let rate = SampleRate.standard

  /// Plays the probe through a path of `delay` frames at `gain` with `noise` added (a seeded
  /// hiss) in cycles of 256, and measures it; `echo` is a second path, `added` what else the input
  /// hears on each frame, and the cycles holding a frame of `lost` are never recorded.
  private func measure(
    delay: Int, gain: Float, noise: Float = 0, jitterAt burst: Int? = nil, slip: Int = 40,
    echo: (delay: Int, gain: Float)? = nil, added: (Int) -> Float = { _ in 0 }, lost: Range<Int> = 0..<0
  ) -> Result<LoopbackMeasurement, LoopbackError> {
    let probe = LoopbackProbe(sampleRate: rate)
    var played: [Float] = []
    var frame = 0
    var hiss: UInt32 = 77
    let heard = { (source: Int, gain: Float) in source >= 0 ? gain * played[source] : 0 }
    while !probe.isDone {
      var output = [Float](repeating: 0, count: 256)
      output.withUnsafeMutableBufferPointer { probe.play(into: $0, from: frame) }
      played += output
      let input = (frame..<(frame + 256)).map { index -> Float in
        hiss = hiss &* 1_664_525 &+ 1_013_904_223
        // A path that slips by `slip` frames from the given burst on (29 312 frames apart).
        let slip = burst.map { index >= $0 * 29_312 ? slip : 0 } ?? 0
        return heard(index - delay - slip, gain) + (echo.map { heard(index - $0.delay, $0.gain) } ?? 0)
          + noise * (Float(hiss) / Float(UInt32.max) - 0.5) + added(index)
      }
      if !lost.overlaps(frame..<(frame + 256)) { input.withUnsafeBufferPointer { probe.record($0, from: frame) } }
      frame += 256
    }
    return probe.roundTrip()
  }

  @Test func aPathsDelayIsFoundToTheFrameWhateverItsGainOrSign() throws {
    for (delay, gain) in [(0, Float(1)), (1_280, 0.5), (1_301, -0.2), (23_999, 0.05), (777, 0.02)] {
      let found = try measure(delay: delay, gain: gain).get()
      #expect(found.frames == delay)
      #expect(abs(found.gain - gain) < 0.01 * abs(gain))
    }
  }

  /// A path 60 dB down, with nothing else heard, is found to the frame: however faint, the
  /// bursts are all the input holds.
  @Test func aPathSixtyDecibelsDownIsFound() throws {
    let found = try measure(delay: 2_345, gain: 0.001).get()
    #expect(found.frames == 2_345)
    #expect(abs(found.gain - 0.001) < 1e-5)
  }

  @Test func aBurstUnderHissIsStillFound() throws {
    // The hiss at 0.2 peak to peak against bursts at 0.05: 12 dB below it.
    #expect(try measure(delay: 4_321, gain: 0.1, noise: 0.2).get().frames == 4_321)
  }

  @Test func silenceOrAPathThatSlipsIsRefused() {
    #expect(measure(delay: 100, gain: 0) == .failure(.nothingHeard))
    #expect(measure(delay: 100, gain: 0.5, jitterAt: 3) == .failure(.unsteady(burst: 4, frames: 40)))
    // Every burst is checked, the first too: the five after it heard 40 frames later.
    #expect(measure(delay: 100, gain: 0.5, jitterAt: 1) == .failure(.unsteady(burst: 1, frames: -40)))
  }

  /// A cycle that starts before the first burst plays the burst's start where it falls.
  @Test func aCycleStartingBeforeTheFirstBurstPlaysItsStart() {
    let probe = LoopbackProbe(sampleRate: rate)
    let part = probe.burst(from: -100, frames: 256)
    #expect(part.map { [$0.offset, $0.position, $0.count] } == [100, 0, 156])
  }

  /// One delay means to the frame: a last burst heard a frame or two off the others is refused.
  @Test func aBurstAFrameOrTwoOffIsRefused() {
    for slip in [1, 2, -1, -2] {
      #expect(
        measure(delay: 2_000, gain: 0.5, jitterAt: 5, slip: slip) == .failure(.unsteady(burst: 6, frames: slip)),
        "\(slip)")
    }
  }

  /// Six bursts of 512 frames, 29 312 apart (half a second to look for each, its length and a
  /// tenth of a second more), faded in and out over 16 frames, played wherever the cycles fall;
  /// frames before the first are silence.
  @Test(arguments: [1, 100, 777, 4_096])
  func theBurstsArePlayedOnTheirFramesWhereverTheCyclesFall(cycle: Int) {
    let probe = LoopbackProbe(sampleRate: rate)
    #expect(probe.duration == 5 * 29_312 + 24_000 + 512)
    var expected = [Float](repeating: 0, count: probe.duration + 100)
    for burst in 0..<6 {
      for (index, sample) in probe.burst.enumerated() { expected[burst * 29_312 + index] = sample }
    }
    var played: [Float] = []
    for start in stride(from: -100, to: probe.duration, by: cycle) {
      var output = [Float](repeating: 1, count: cycle)
      output.withUnsafeMutableBufferPointer { probe.play(into: $0, from: start) }
      played += output
    }
    #expect(played[..<100].allSatisfy { $0 == 0 })
    #expect(Array(played[100..<(probe.duration + 100)]) == Array(expected[..<probe.duration]))
    #expect(probe.burst.count == 512 && probe.burst[0] == 0 && probe.burst[511] == 0)
    #expect(probe.burst.allSatisfy { abs($0) <= 0.5 } && probe.burst[16...495].contains { abs($0) > 0.48 })
    #expect(probe.burst[1...15].allSatisfy { abs($0) <= 0.5 * 15 / 16 })
  }

  /// It is done once every frame it listens for is recorded, and not before.
  @Test func itIsDoneOnceEveryFrameIsRecorded() {
    let probe = LoopbackProbe(sampleRate: rate)
    let frames = [Float](repeating: 0, count: probe.duration - 1)
    frames.withUnsafeBufferPointer { probe.record($0, from: 0) }
    #expect(!probe.isDone)
    [Float(0)].withUnsafeBufferPointer { probe.record($0, from: probe.duration - 1) }
    #expect(probe.isDone)
  }

  /// A burst must come back matching the one played (their normalised correlation at least a
  /// half): under hiss peaking three times as high as the bursts it is still found, at six times
  /// nothing is; through a clean path it matches whole.
  @Test func aBurstMustMatchTheOnePlayed() throws {
    #expect(try measure(delay: 3_000, gain: 0.5).get().match > 0.999)
    let heard = try measure(delay: 3_000, gain: 0.1, noise: 0.3).get()
    #expect(heard.frames == 3_000 && heard.match < 0.9)
    #expect(measure(delay: 3_000, gain: 0.1, noise: 0.6) == .failure(.nothingHeard))
  }

  /// Each burst is looked for within 64 frames of where the six together put it.
  @Test func aBurstSixtyFourFramesOffIsSaid() {
    #expect(measure(delay: 2_000, gain: 0.5, jitterAt: 5, slip: 64) == .failure(.unsteady(burst: 6, frames: 64)))
  }

  /// A cycle starting where a burst ends plays the next one where it falls in it; past the six,
  /// nothing plays.
  @Test func aCycleFromABurstsEndPlaysTheNextAndNothingPlaysAfterTheSixth() {
    let probe = LoopbackProbe(sampleRate: rate)
    var output = [Float](repeating: 1, count: 30_000)
    output.withUnsafeMutableBufferPointer { probe.play(into: $0, from: 512) }
    #expect(Array(output[28_800..<29_312]) == probe.burst)
    #expect(output[..<28_800].allSatisfy { $0 == 0 } && output[29_312...].allSatisfy { $0 == 0 })
    var after = [Float](repeating: 1, count: 30_000)
    after.withUnsafeMutableBufferPointer { probe.play(into: $0, from: 5 * 29_312 + 512) }
    #expect(after.allSatisfy { $0 == 0 })
  }

  /// A burst that came back on frame 0, the others 30 frames later, is said: each burst is
  /// looked for from the first frame heard on.
  @Test func aBurstOnTheFirstFrameIsSaid() {
    #expect(measure(delay: 30, gain: 0.5, jitterAt: 5, slip: -30) == .failure(.unsteady(burst: 6, frames: -30)))
  }

  /// A burst 65 frames off is not looked for where it is: only within 64.
  @Test(arguments: [65, -65])
  func aBurstSixtyFiveFramesOffIsNotFoundThere(slip: Int) {
    #expect(measure(delay: 2_000, gain: 0.5, jitterAt: 5, slip: slip) != .failure(.unsteady(burst: 6, frames: slip)))
  }

  /// A burst the input lost (a dropout: the cycles it fell in never came) is silence, which holds
  /// nothing against the other five: the round trip is found by them, to the frame.
  @Test func aBurstTheInputLostLeavesTheRoundTripToTheOthers() throws {
    let third = 2 * 29_312 + 3_000
    let found = try measure(delay: 3_000, gain: 0.5, lost: (third - 100)..<(third + 600)).get()
    #expect(found.frames == 3_000)
  }

  /// A cycle the input lost inside a faint burst is silence: the rest of the burst still peaks
  /// where the other five do.
  @Test func aCycleLostInAFaintBurstIsSilence() throws {
    let third = 2 * 29_312 + 3_000
    let found = try measure(delay: 3_000, gain: 0.05, lost: (third + 200)..<(third + 201)).get()
    #expect(found.frames == 3_000)
  }

  /// Of two paths heard as loud (and as alike), the round trip is the shorter.
  @Test func ofTwoPathsAsLoudTheRoundTripIsTheShorter() throws {
    let found = try measure(delay: 1_100, gain: 0.4, echo: (100, 0.4)).get()
    #expect(found.frames == 100)
  }

  /// The match is read over everything heard where the bursts came back, the input's first frame
  /// too: a pop on it, under a round trip of no frames, matches less than the bursts alone.
  @Test func aPopOnTheFirstFrameHeardLowersTheMatch() throws {
    let clean = try measure(delay: 0, gain: 0.5).get()
    let popped = try measure(delay: 0, gain: 0.5, added: { $0 == 0 ? 1 : 0 }).get()
    #expect(popped.frames == 0)
    #expect(popped.match < clean.match - 0.001, "\(popped.match) against \(clean.match)")
  }
}
