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
  private static func attacks(in samples: [Float], told: Bool) -> [Int64] {
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
}
