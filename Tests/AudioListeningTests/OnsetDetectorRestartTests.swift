import AudioListening
import Glibc
import MetronomeCore
import MetronomeTesting
import Testing

/// The detector told that the input's frames before one were lost (a sound server's xrun): the
/// jump in the sound there is no attack, and the detector hears again as at the input's start.
@Suite(.timeLimit(.minutes(1))) struct OnsetDetectorRestartTests {
  /// Frames lost: from 4,608 up to 5,632, a JACK cycle of 1,024.
  private static let lost = 4_608..<5_632

  /// A 100 Hz tone at 0.3, ringing through the whole input, as a drum or a click's tail may: the
  /// lost cycle moves it by 48° of its phase, a jump of 0.24 where the input goes on.
  private static func ringing(count: Int) -> [Float] {
    (0..<count).map { Float(0.3 * sin(2 * Double.pi * 100 * Double($0) / 48_000)) }
  }

  /// Noise at `peak` from `frame`, decaying over 5 ms to 1/e: a stroke.
  private static func stroke(into samples: inout [Float], at frame: Int, seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    for index in 0..<min(samples.count - frame, 2_400) {
      samples[frame + index] += 0.6 * Float(exp(-Double(index) / 240)) * Float.random(in: -1...1, using: &random)
    }
  }

  /// The attacks found in `samples` but for the frames `lost`, fed in cycles of 256 numbered as
  /// heard, the detector told of the loss before it reads anything when `told`.
  private static func attacks(in samples: [Float], told: Bool, lost: Range<Int> = lost) -> [Int64] {
    let detector = OnsetDetector(sampleRate: .standard)
    if told { detector.restart(at: Int64(lost.upperBound)) }
    var found: [Int64] = []
    samples.withUnsafeBufferPointer { all in
      for start in stride(from: 0, to: all.count, by: 256) where !lost.contains(start) {
        let end = min(start + 256, all.count)
        detector.process(UnsafeBufferPointer(rebasing: all[start..<end]), from: Int64(start)) { found.append($0.frame) }
      }
    }
    return found
  }

  @Test func theJumpWhereACycleWasLostIsAnAttackUntoldAndNoneTold() {
    let samples = Self.ringing(count: 14_400)
    #expect(Self.attacks(in: samples, told: false).contains { abs($0 - Int64(Self.lost.upperBound)) <= 16 })
    #expect(Self.attacks(in: samples, told: true).isEmpty)
  }

  /// Eleven milliseconds (528 frames at 48 kHz) after the loss start no attack, as the input's
  /// first do; a stroke after them is found where it starts.
  @Test(arguments: [(400, false), (600, true), (3_000, true)] as [(Int, Bool)])
  func theDetectorHearsAgainElevenMillisecondsAfterTheLoss(after: Int, found: Bool) {
    #expect(OnsetDetector(sampleRate: .standard).deafFrames == 528)
    var samples = Self.ringing(count: 14_400)
    let frame = Self.lost.upperBound + after
    Self.stroke(into: &samples, at: frame, seed: UInt64(after))
    let attacks = Self.attacks(in: samples, told: true)
    #expect(attacks.contains { abs($0 - Int64(frame)) <= 2 } == found, "\(attacks) for a stroke on \(frame)")
    #expect(attacks.count == (found ? 1 : 0), "\(attacks)")
  }

  /// A stroke whose three milliseconds were cut by the loss is placed by what was heard of it, and
  /// one before that as ever, though the detector was told of the loss before either was read.
  @Test(arguments: [4_000, 4_500])
  func strokesHeardBeforeTheLossAreFoundWhereTheyStart(frame: Int) {
    var samples = [Float](repeating: 0, count: 14_400)
    Self.stroke(into: &samples, at: frame, seed: 7)
    let attacks = Self.attacks(in: samples, told: true)
    #expect(attacks.count == 1 && attacks.allSatisfy { abs($0 - Int64(frame)) <= 2 }, "\(attacks) for \(frame)")
  }

  /// A swell cut by the loss 60 frames in (from nothing to ±0.5 over 96 frames, as in
  /// `OnsetDetectorTests`) starts where its first difference first reaches a tenth of the loudest
  /// heard of it, the difference into its last frame before the loss.
  @Test func aSwellCutByTheLossStartsAtATenthOfWhatWasHeardOfIt() {
    var samples = [Float](repeating: 0, count: 14_400)
    let start = Self.lost.lowerBound - 60
    for index in 0..<480 {
      let amplitude = Float(index < 120 ? 0.5 * min(Double(index) / 96, 1) : 0.02)
      samples[start + index] = index % 2 == 0 ? amplitude : -amplitude
    }
    let differences = (start..<Self.lost.lowerBound).map { abs(samples[$0] - samples[$0 - 1]) }
    let tenth = differences.max()! / 10
    let expected = Int64(start + differences.firstIndex { $0 >= tenth }!)
    #expect(Self.attacks(in: samples, told: true) == [expected])
  }

  /// Hits 25 ms apart or more are two, across a loss too: a stroke 100 frames before a loss of
  /// 256 frames and a tick (gone within 2 ms) 1,000 frames after it (25.9 ms apart) are two; 800
  /// after (21.7 ms), one.
  @Test(arguments: [(1_000, 2), (800, 1)] as [(Int, Int)])
  func hitsLessThanTwentyFiveMillisecondsApartAcrossALossAreOne(after: Int, hits: Int) {
    let lost = 4_608..<4_864
    var samples = [Float](repeating: 0, count: 14_400)
    Self.stroke(into: &samples, at: lost.lowerBound - 100, seed: 1)
    let tick = lost.upperBound + after
    for index in tick..<samples.count { samples[index] = 0 }
    var random = SeededGenerator(seed: 2)
    for index in 0..<96 {
      samples[tick + index] = 0.6 * Float(exp(-Double(index) / 10)) * Float.random(in: -1...1, using: &random)
    }
    let attacks = Self.attacks(in: samples, told: true, lost: lost)
    let expected = [Int64(lost.lowerBound - 100), Int64(tick)].prefix(hits)
    #expect(
      attacks.count == hits && zip(attacks, expected).allSatisfy { abs($0 - $1) <= 2 }, "\(attacks) for \(expected)")
  }
}
