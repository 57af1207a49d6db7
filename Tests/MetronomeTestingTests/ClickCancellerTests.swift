import AudioListening
import Glibc
import MetronomeCore
import MetronomeTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct ClickCancellerTests {
  private let rate = SampleRate.standard

  /// Half a second of the output: the built-in click on `clicks`, and what the input hears of it
  /// `roundTrip` frames later at `gain`, with `hits` (noise bursts at 0.4) added on their frames.
  private func take(clicks: [Int], hits: [Int], roundTrip: Int, gain: Float, seconds: Int = 2)
    -> (output: [Float], input: [Float])
  {
    let click = ClickSound.pulse.samples(level: .strong, sampleRate: rate, volume: 1)
    var output = [Float](repeating: 0, count: seconds * rate.hz)
    for frame in clicks {
      for (index, sample) in click.enumerated() where frame + index < output.count { output[frame + index] = sample }
    }
    var input = [Float](repeating: 0, count: output.count)
    for index in roundTrip..<input.count { input[index] = gain * output[index - roundTrip] }
    var random = SeededGenerator(seed: 5)
    for frame in hits {
      for index in 0..<960 where frame + index < input.count {
        input[frame + index] += 0.4 * Float(exp(-Double(index) / 96)) * Float.random(in: -1...1, using: &random)
      }
    }
    return (output, input)
  }

  /// The attacks a listener finds in `take`, fed a cycle of 256 frames at a time.
  private func heard(_ take: (output: [Float], input: [Float]), roundTrip: Int) -> [Int64] {
    AudioHitListener(canceller: ClickCanceller(roundTrip: Int64(roundTrip)), sampleRate: rate).attacks(
      in: take.input, playing: take.output
    )
    .map(\.0.frame)
  }

  @Test func clicksHeardThroughALoopAreNotHitsButAHitOnAClickIs() {
    let clicks = stride(from: 2_400, to: 96_000, by: 12_000).map { $0 }
    let roundTrip = 1_237
    // A hit alone, and one exactly where the click is heard, and one 5 ms after it.
    let hits = [8_000, clicks[4] + roundTrip, clicks[6] + roundTrip + 240]
    let found = heard(take(clicks: clicks, hits: hits, roundTrip: roundTrip, gain: 0.3), roundTrip: roundTrip)
    #expect(found.count == 3, "\(found)")
    for (found, hit) in zip(found, hits) { #expect(abs(found - Int64(hit)) <= 2) }
  }

  @Test func aLoopCutHalfWayLeavesNoClickOfItsOwn() {
    // The cable is pulled after a second: the clicks stop coming back, and taking them out of
    // the silence left would make each one heard, upside down.
    let clicks = stride(from: 2_400, to: 96_000, by: 12_000).map { $0 }
    var cut = take(clicks: clicks, hits: [], roundTrip: 1_237, gain: 0.3)
    for index in 48_000..<cut.input.count { cut.input[index] = 0 }
    #expect(heard(cut, roundTrip: 1_237).isEmpty)
  }

  @Test func anInputHeardWithNoOutputGivenIsOnlyListenedTo() {
    // As through a line input while the output goes elsewhere: nothing to take out.
    let listener = AudioHitListener(canceller: ClickCanceller(roundTrip: 1_000), sampleRate: rate)
    let take = take(clicks: [], hits: [4_800], roundTrip: 0, gain: 0)
    var found: [Int64] = []
    take.input.withUnsafeBufferPointer { input in
      listener.listen(input: input, output: UnsafeBufferPointer(start: nil, count: 0), from: 0) { attack, _ in
        found.append(attack.frame)
      }
    }
    #expect(found.count == 1 && abs((found.first ?? 0) - 4_800) <= 2)
    // Nothing of the output heard: the hit is placed by the round trip given, not as heard.
    #expect(listener.placement == Placement(roundTrip: 1_000, heard: false))
  }

  @Test func withoutTheCancellerTheClicksWouldBeHeard() {
    // The same take, listened to as if the output reached the input ten seconds late, after the
    // take: nothing is taken out, and every click is an attack, which is what the canceller's
    // test above rules out.
    let clicks = stride(from: 2_400, to: 96_000, by: 12_000).map { $0 }
    let found = heard(take(clicks: clicks, hits: [], roundTrip: 1_237, gain: 0.3), roundTrip: 480_000)
    #expect(found.count == clicks.count, "\(found)")
  }

  /// A microphone connected halfway through the first click it hears: the rest of that click,
  /// which fits no click's start, is not a hit, while the canceller has not found the click; a
  /// hit played later is.
  @Test func theRestOfAClickHeardAsTheMicrophoneIsConnectedIsNotAHit() {
    let clicks = stride(from: 2_400, to: 96_000, by: 12_000).map { $0 }
    var cut = take(clicks: clicks, hits: [clicks[3] + 1_237 + 2_400], roundTrip: 1_237, gain: 0.5)
    for index in 0..<(clicks[0] + 1_237 + 300) { cut.input[index] = 0 }
    let found = heard(cut, roundTrip: 1_237)
    #expect(found.count == 1 && abs((found.first ?? 0) - Int64(clicks[3] + 1_237 + 2_400)) <= 2, "\(found)")
  }

  /// Through headphones (the microphone never hears the click), hits on the clicks are found
  /// from the fourth click on: the first three are given to finding the click.
  @Test func throughHeadphonesHitsOnTheClicksAreFoundFromTheFourth() {
    let clicks = stride(from: 2_400, to: 96_000, by: 12_000).map { $0 }
    // On the third click (not found) and the fourth (found): the edge, either side.
    let hits = [clicks[2] + 1_237, clicks[3] + 1_237, clicks[7] + 1_237]
    let found = heard(take(clicks: clicks, hits: hits, roundTrip: 1_237, gain: 0), roundTrip: 1_237)
    #expect(found.count == 2 && zip(found, hits.dropFirst()).allSatisfy { abs($0 - Int64($1)) <= 2 }, "\(found)")
  }

  /// An echo later or earlier than the 1,000 frames two devices' positions put it at is found.
  ///
  /// Searching 5 ms either way finds it at the first click and takes every click out, while a hit
  /// on a click stays.
  @Test(arguments: [1_037, 800])
  func anEchoSomeFramesFromWhereTheClocksSayIsFoundAndTakenOut(echo: Int) {
    let clicks = stride(from: 2_400, to: 96_000, by: 12_000).map { $0 }
    let hits = [clicks[5] + echo]
    let take = take(clicks: clicks, hits: hits, roundTrip: echo, gain: 0.3)
    let canceller = ClickCanceller(roundTrip: 1_000)
    canceller.searchFrames = rate.hz / 200
    let listener = AudioHitListener(canceller: canceller, sampleRate: rate)
    let placed = listener.attacks(in: take.input, playing: take.output)
    let found = placed.map(\.0.frame)
    #expect(listener.roundTrip == Int64(echo))
    #expect(placed.allSatisfy { $0.1 == Placement(roundTrip: Int64(echo), heard: true) })
    #expect(abs(canceller.gain - 0.3) < 0.003)
    #expect(found.count == 1 && abs(found[0] - Int64(hits[0])) <= 2, "\(found)")
    // Without the search, every click from the fifth on would be heard.
    let unsearched = heard(take, roundTrip: 1_000)
    #expect(
      clicks.dropFirst(4).allSatisfy { click in unsearched.contains { abs($0 - Int64(click + echo)) <= 2 } },
      "\(unsearched)")
  }

  @Test func aDrumRingingLowUnderTheClicksDoesNotLeanTheGain() {
    // A 60 Hz ring at 0.2 under every click: fitted on the levels, it would lean the gain by more
    // than a thousandth, enough for a click's edges to be heard; fitted on the changes it does not.
    let clicks = stride(from: 2_400, to: 96_000, by: 12_000).map { $0 }
    var ringing = take(clicks: clicks, hits: [], roundTrip: 1_237, gain: 0.5)
    for index in ringing.input.indices {
      ringing.input[index] += 0.2 * Float(sin(2 * Double.pi * 60 * Double(index) / Double(rate.hz) + 0.3))
    }
    let canceller = ClickCanceller(roundTrip: 1_237)
    let listener = AudioHitListener(canceller: canceller, sampleRate: rate)
    #expect(listener.attacks(in: ringing.input, playing: ringing.output).isEmpty)
    #expect(abs(canceller.gain - 0.5) < 0.0005, "\(canceller.gain)")
  }
}
