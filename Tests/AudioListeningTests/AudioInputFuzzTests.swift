import AudioListening
import Glibc
import MetronomeCore
import MetronomeTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct AudioInputFuzzTests {
  /// Whatever an input and an output send, through the single-copy canceller and the room canceller.
  ///
  /// Noise at any level, clipping, not-a-number, infinities, silence, in cycles of any size, with
  /// or without output: no crash, and every attack found lies in what was heard, after the one
  /// before, at least the spacing apart; a hit after it all is still heard.
  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64], [false, true])
  func anyInputGivesAttacksInOrderWithinWhatWasHeard(seed: UInt64, learningTheRoom: Bool) {
    var random = SeededGenerator(seed: seed)
    let rate = SampleRate.standard
    let roundTrip = Int64.random(in: 0...50_000, using: &random)
    let listener =
      learningTheRoom
      ? AudioHitListener(canceller: EchoPathCanceller(roundTrip: roundTrip), sampleRate: rate)
      : AudioHitListener(canceller: ClickCanceller(roundTrip: roundTrip), sampleRate: rate)
    var frame: Int64 = 0
    var found: [Int64] = []
    let specials: [Float] = [.nan, .infinity, -.infinity, 1e30, -1e30, 1, -1, 0, .leastNonzeroMagnitude]
    for _ in 0..<400 {
      let count = Int.random(in: 1...5_000, using: &random)
      let level = Float.random(in: 0...2, using: &random)
      let input = (0..<count).map { _ -> Float in
        Int.random(in: 0..<50, using: &random) == 0
          ? specials.randomElement(using: &random) ?? 0 : level * Float.random(in: -1...1, using: &random)
      }
      let output = Bool.random(using: &random) ? input.map { $0 * 0.5 } : []
      input.withUnsafeBufferPointer { input in
        output.withUnsafeBufferPointer { output in
          listener.listen(input: input, output: output, from: frame) { attack, _ in found.append(attack.frame) }
        }
      }
      frame += Int64(count)
    }
    #expect(found.allSatisfy { (0..<frame).contains($0) })
    #expect(zip(found, found.dropFirst()).allSatisfy { $1 - $0 >= 1_200 })
    // A second of silence, then a burst, while the output plays silence (as a live output goes
    // on playing: the room canceller waits for the output its input may hear): the listener still
    // hears (what it says of the fuzz's last frames as the silence begins is the fuzz's).
    let quietFrom = frame
    let silence = [Float](repeating: 0, count: 48_000)
    let burst = (0..<4_800).map { Float(exp(-Double($0) / 480)) * Float.random(in: -0.5...0.5, using: &random) }
    var last: [Int64] = []
    for block in [silence, burst] {
      let quiet = [Float](repeating: 0, count: block.count)
      block.withUnsafeBufferPointer { block in
        quiet.withUnsafeBufferPointer { quiet in
          listener.listen(input: block, output: quiet, from: frame) { attack, _ in last.append(attack.frame) }
        }
      }
      frame += Int64(block.count)
    }
    last.removeAll { $0 < quietFrom }
    #expect(last.count == 1 && abs((last.first ?? 0) - (frame - 4_800)) <= 2, "\(last) for \(frame - 4_800)")
  }

  /// An input on a clock of its own: readings of both devices anywhere (wild ones included), the
  /// input's frames moved against the output's now and then, periods of any length held while
  /// the readings are in doubt (`DoubtedPeriods`), the echo learned: no crash, and every attack
  /// found lies among the frames the input was placed on.
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func anInputOnAClockOfItsOwnGivesAttacksAmongItsFrames(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let rate = SampleRate.standard
    let listener = AudioHitListener(
      canceller: EchoPathCanceller(roundTrip: Int64.random(in: -500...500, using: &random)), sampleRate: rate)
    var input = EarliestReading()
    var output = EarliestReading()
    var alignment = CaptureAlignment(sampleRate: rate)
    // Room for periods of up to 600 frames: longer ones are heard as placed.
    let doubted = DoubtedPeriods(frames: 600)
    var captured: Int64 = 0
    var placed: [Range<Int64>] = []
    var found: [Int64] = []
    var mostHeld = 0
    for step in 0..<300 {
      let now = Int64(step) * 5_000 + Int64.random(in: 0...4_000, using: &random)
      let wild = Int.random(in: 0..<150, using: &random) == 0
      // Once settled, one reading in ten 20 ms late: past the spread allowed (taken before it
      // settled, one would widen the spread), short of a jump, so in doubt.
      let late = input.isSettled && Int.random(in: 0..<10, using: &random) == 0 ? Int64(20_000) : 0
      let moved = input.read(
        wild ? Double(Int64.random(in: .min ... .max, using: &random)) : Double(now % 7_000 + late), atMicros: now)
      output.read(Double.random(in: -1e3...1e3, using: &random), atMicros: now)
      alignment.update(
        inputFrameZeroMicros: input.isSettled ? input.estimate : nil,
        outputFrameZeroMicros: output.isSettled ? output.estimate : nil)
      let count = Int.random(in: 1...1_000, using: &random)
      let samples = (0..<count).map { _ in
        Float.random(in: -1...1, using: &random) * Float.random(in: 0...1, using: &random)
      }
      let played = (0..<count).map { _ in Float.random(in: -0.5...0.5, using: &random) }
      let offset = (alignment.offset ?? 0) + Int64.random(in: -300...300, using: &random)
      played.withUnsafeBufferPointer { listener.played($0, from: captured + offset - listener.roundTrip) }
      samples.withUnsafeBufferPointer { samples in
        doubted.take(samples, placedAt: captured + offset, doubted: input.isDoubted, moved: moved) { period, first in
          listener.listen(input: period, output: UnsafeBufferPointer(start: nil, count: 0), from: first) {
            attack, _ in found.append(attack.frame)
          }
        }
      }
      mostHeld = max(mostHeld, doubted.count)
      placed.append((captured + offset)..<(captured + offset + Int64(count)))
      captured += Int64(count)
    }
    let lowest = placed.map(\.lowerBound).min() ?? 0
    let highest = placed.map(\.upperBound).max() ?? 0
    #expect(found.allSatisfy { (lowest..<highest).contains($0) })
    #expect(mostHeld > 0, "no period was ever held")
  }
}
