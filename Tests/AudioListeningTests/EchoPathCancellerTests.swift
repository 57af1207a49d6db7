import MetronomeCore
import MetronomeTesting
import Testing

@testable import AudioListening

/// The room canceller's own contract (`EchoPathCanceller`), through a cable: which frames it gives
/// back and when, how loud it says what is left of the echo may be, what it takes for an input
/// cut at full scale, and when it says the input stopped hearing the clicks.
@Suite(.timeLimit(.minutes(2))) struct EchoPathCancellerTests {
  /// What the canceller gave back: each segment's first frame, its frames with the echo taken
  /// out, and how loud what is left of the echo may be on each.
  struct Given {
    var firsts: [Int64] = []
    var cancelled: [Float] = []
    var bounds: [Float] = []
  }

  /// Gives `canceller` the input from `first` on, and keeps what it gives back.
  private func cancel(_ input: [Float], from first: Int64, in canceller: EchoPathCanceller, into given: inout Given) {
    input.withUnsafeBufferPointer { input in
      canceller.cancel(input, from: first) { cancelled, bound, segmentFirst in
        given.firsts.append(segmentFirst)
        given.cancelled += cancelled
        given.bounds += bound
      }
    }
  }

  /// The frames `first..<first + count` of a ramp: each frame's value tells where it came from.
  private func ramp(_ first: Int, count: Int) -> [Float] { (first..<(first + count)).map { Float($0 % 4_096) / 4_096 } }

  @Test(arguments: [0, 1, 5] as [Int64])
  func eachSegmentIsGivenOnceFromTheFirstFrameGiven(first: Int64) {
    // Nothing played: every 128 frames are given back as they come, as they came.
    let canceller = EchoPathCanceller(roundTrip: 0)
    var given = Given()
    cancel(ramp(Int(first), count: 128), from: first, in: canceller, into: &given)
    #expect(given.firsts == [first], "exactly 128 frames are a segment")
    cancel(ramp(Int(first) + 128, count: 300), from: first + 128, in: canceller, into: &given)
    #expect(given.firsts == [first, first + 128, first + 256])
    #expect(given.cancelled == ramp(Int(first), count: 384), "nothing played, nothing taken out")
    #expect(given.bounds.allSatisfy { $0 == 0 }, "no echo, no bound")
  }

  @Test func inputPlacedAnewLetsGoOfWhatWasShortOfASegment() {
    let canceller = EchoPathCanceller(roundTrip: 0)
    var given = Given()
    // One frame waits when the input is placed anew (a capture clock of its own): it is let go,
    // and the new input starts a segment of its own.
    cancel(ramp(0, count: 129), from: 0, in: canceller, into: &given)
    cancel(ramp(5_000, count: 256), from: 5_000, in: canceller, into: &given)
    #expect(given.firsts == [0, 5_000, 5_128])
    #expect(given.cancelled == ramp(0, count: 128) + ramp(5_000, count: 256))
  }

  @Test func inputWaitingForTheOutputIsGivenWhenPlacedAnewOrWhenTheQueueIsFull() {
    let canceller = EchoPathCanceller(roundTrip: 0)
    var given = Given()
    // Silence played for 128 frames only: the input waits for the output it may hear.
    [Float](repeating: 0, count: 128).withUnsafeBufferPointer { canceller.played($0, from: 0) }
    cancel(ramp(0, count: 300), from: 0, in: canceller, into: &given)
    #expect(given.firsts.isEmpty, "input waits until the output it may hear has been played")
    // Placed anew: the whole segments waiting are given as they are, the 44 frames left let go.
    cancel(ramp(10_000, count: 300), from: 10_000, in: canceller, into: &given)
    #expect(given.firsts == [0, 128])
    // 8,192 frames waiting fill the queue: they are given rather than lost.
    cancel(ramp(10_300, count: 8_200), from: 10_300, in: canceller, into: &given)
    #expect(given.firsts == [0, 128] + (0..<64).map { 10_000 + 128 * Int64($0) })
    // Those that came after the queue was emptied wait, in their place, until placed anew.
    cancel(ramp(30_000, count: 1), from: 30_000, in: canceller, into: &given)
    #expect(given.firsts.suffix(2) == [18_192, 18_320])
    #expect(given.cancelled == ramp(0, count: 256) + ramp(10_000, count: 8_192) + ramp(18_192, count: 256))
  }
}

extension EchoPathCancellerTests {
  /// A quarter second at the kit's rate: the clicks' spacing.
  static let spacing = 11_025
  /// Where the first click starts, and how late the cable brings the clicks back.
  static let lead = 1_000
  static let delay = 300

  /// `clicks` clicks of one sound, `spacing` frames apart (or, `bars` given, its first beat's
  /// sound and the others' in bars of that many), and what a cable brings back of them: `delay`
  /// frames late (or each click `delays` of its number), the echo's peak at `peak`, the volume
  /// turned by each of `turns`' factors from its click on.
  private func cable(
    clicks: Int, spacing: Int = spacing, peak: Float = 0.5, bars: Int? = nil, turns: [(click: Int, by: Float)] = [],
    delays: (Int) -> Int = { _ in delay }
  ) throws -> (output: [Float], echo: [Float]) {
    let rate = try SampleRate(RoomTake.sampleRate)
    let normal = ClickSound.pulse.samples(level: .normal, sampleRate: rate, volume: 1)
    let strong = ClickSound.pulse.samples(level: .strong, sampleRate: rate, volume: 1)
    let gain = peak / (normal.map(\.magnitude).max() ?? 1)
    var output = [Float](repeating: 0, count: Self.lead + clicks * spacing)
    var echo = output
    for click in 0..<clicks {
      let sound = bars.map { click.isMultiple(of: $0) } == true ? strong : normal
      let turned = turns.filter { click >= $0.click }.reduce(gain) { $0 * $1.by }
      let start = Self.lead + click * spacing
      let heard = start + delays(click)
      for (index, sample) in sound.enumerated() {
        output[start + index] = sample
        if heard + index < echo.count { echo[heard + index] = turned * sample }
      }
    }
    return (output, echo)
  }

  /// A hiss 66 dB under the echo's peak of 0.5, the same every run.
  private func hiss(count: Int) -> [Float] {
    var state: UInt32 = 12_345
    return (0..<count).map { _ in
      state = state &* 1_664_525 &+ 1_013_904_223
      return 0.0005 * (Float(state >> 8) / Float(1 << 24) - 0.5)
    }
  }

  @Test func whatIsLeftOfALearnedEchoIsBoundByThreeTimesWhatItUsuallyLeavesAndNeverBelowMinus60dB() throws {
    let (output, echo) = try cable(clicks: 12)
    // The hiss a third as loud (76 dB under the echo), so that three times what it leaves is now
    // under the floor, now over it.
    let input = zip(echo, hiss(count: echo.count)).map { $0 + $1 / 3 }
    var held: Float = 0
    var shares: Set<Float> = []
    var checked = 0
    EchoPathCanceller.run(output, hearing: input) { first, cancelled, bound, canceller in
      for index in 0..<cancelled.count {
        let frame = first + index
        // The echo predicted: what was heard less what was given back.
        held = max((input[frame] - cancelled[index]).magnitude, held * 0.99)
        if frame < Self.lead - Int(EchoPathCanceller.lead) - 128 {
          // Before the segment the first click's answer may start in, no echo: nothing bounds an attack.
          #expect(bound[index] == 0, "at \(frame)")
        } else if frame >= Self.lead + 4 * Self.spacing {
          let share = max(0.001, 3 * canceller.residualShare.squareRoot())
          shares.insert(share)
          #expect(
            abs(bound[index] - share * held) <= 1e-3 * share * held + 1e-9,
            "at \(frame) \(canceller.residualShare) \(held) \(bound[index])")
          checked += 1
        }
      }
    }
    #expect(checked > 7 * Self.spacing, "the clicks after the fourth, checked")
    // Both sides of -60 dB were taken: the floor, and three times what the hiss leaves.
    #expect(shares.contains(0.001) && shares.contains { $0 > 0.001 }, "\(shares.sorted())")
  }
}

extension EchoPathCancellerTests {
  /// A microphone with a hiss 54 dB under the echo's peak, which hears the clicks (100 BPM) 100 ms
  /// later than the devices say, through a cable: every stroke of a drummer playing from the
  /// fifth click on is found within a millisecond, and nothing else. (The hiss before the first
  /// click's direct sound was once shared out by a weight so small that the division overflowed:
  /// its answer became infinite there; and a direct sound more than 46 ms later than said was not
  /// looked for.)
  @Test func aHissingMicrophoneHearingTheClicks100msLaterThanSaidHearsEveryStroke() throws {
    let rate = try SampleRate(RoomTake.sampleRate)
    let spacing = 26_460
    let (output, _) = try cable(clicks: 24, spacing: spacing)
    let late = rate.hz / 10
    var input = hiss(count: output.count).map { $0 * 4 }
    for index in late..<output.count { input[index] += 0.5 * output[index - late] }
    let take = try DrumTake(clicks: 24, spacing: spacing, spread: 882, skipped: 4, seed: 26)
    let mixed = take.mixed(into: input) { Self.lead + $0 * spacing + late }
    let listener = AudioHitListener(canceller: EchoPathCanceller(roundTrip: 0), sampleRate: rate)
    let found = listener.attacks(in: mixed.samples, playing: output).map { Int($0.0.frame) }
    #expect(found.count == mixed.attacks.count, "found \(found) for \(mixed.attacks)")
    #expect(zip(found, mixed.attacks).allSatisfy { abs($0 - $1) <= rate.hz / 1_000 }, "\(found) for \(mixed.attacks)")
  }
}

extension EchoPathCancellerTests {
  /// An input cut at full scale where the echo is loud is bound by what it holds.
  ///
  /// A cut is the same value twice at 0.999 or more; where the echo is loud, all that segment
  /// holds may be the echo, so its bound is what it holds. A pair across two segments cuts the
  /// second; a frame at full scale alone cuts nothing; a cut where no echo is loud (a drum between
  /// clicks) is a drum's.
  @Test func anInputCutAtFullScaleWhereTheEchoIsLoudBoundsItsSegmentByWhatItHolds() throws {
    let (output, echo) = try cable(clicks: 9, peak: 0.9)
    var input = echo
    // Segments start at multiples of 128 from the input's first frame. Click 6's echo starts at
    // 67,450: a pair across 67,456; click 7's at 78,475: a pair on the first two frames of its
    // segment, from 78,464; and a pair 5,000 frames after it, where nothing is heard.
    let cuts = [67_455, 78_464, 83_500]
    for cut in cuts { (input[cut], input[cut + 1]) = (1, 1) }
    var bounds: [Int: (bound: [Float], heard: [Float])] = [:]
    EchoPathCanceller.run(output, hearing: input) { first, _, bound, _ in
      bounds[first] = (Array(bound), Array(input[first..<(first + bound.count)]))
    }
    let cutSegments = [67_456, 78_464]
    for first in cutSegments {
      let (bound, heard) = try #require(bounds[first])
      #expect(bound == heard.map(\.magnitude), "the segment from \(first) is cut")
    }
    for first in [67_328, 83_456] {
      let (bound, heard) = try #require(bounds[first])
      #expect(zip(bound, heard).contains { $0 != $1.magnitude }, "the segment from \(first) is not cut")
      #expect(bound.allSatisfy { $0 < 0.01 }, "the segment from \(first) is bound by the echo's share")
    }
  }

  /// A microphone that stops hearing the clicks as they play on (unplugged, muted) is said to be
  /// silent once a second's worth of segments (375 of 128 frames) that should have held the echo
  /// held nothing: not at the 374th; and again the second time, counted from 0 once it heard them.
  @Test func aMicrophoneThatStopsHearingIsSaidSilentAfterASecondOfEchoUnheardEachTime() throws {
    let (output, echo) = try cable(clicks: 96)
    // Eight clicks heard (their echo learned); silent from the ninth on, back for clicks 50 and 51.
    let silent = Self.lead + 8 * Self.spacing
    let back = (Self.lead + 50 * Self.spacing)..<(Self.lead + 52 * Self.spacing)
    let input = echo.indices.map { $0 < silent || back.contains($0) ? echo[$0] : 0 }
    var unheard = 0
    var said: [(unheard: Int, silences: Int)] = []
    EchoPathCanceller.run(output, hearing: input) { first, _, _, canceller in
      let segment = first..<(first + 128)
      guard first >= silent, segment.contains(where: { echo[$0] != 0 }) else { return }
      unheard = back.contains(first) ? 0 : unheard + 1
      said.append((unheard, canceller.changes.silences))
    }
    let firstTime = said.prefix { $0.unheard > 0 }
    #expect(firstTime.allSatisfy { $0.silences == ($0.unheard < 375 ? 0 : 1) }, "\(firstTime.map(\.silences))")
    #expect(firstTime.contains { $0.unheard == 375 })
    let secondTime = said.drop { $0.unheard > 0 }.drop { $0.unheard == 0 }
    #expect(secondTime.allSatisfy { $0.silences == ($0.unheard < 375 ? 1 : 2) }, "\(secondTime.map(\.silences))")
    #expect(secondTime.contains { $0.unheard == 375 })
  }

  /// A microphone that stops hearing the clicks but still hears its own hiss, a two-hundredth of
  /// the echo's mean energy a segment, is said silent as one that hears nothing: segment after
  /// segment it hears far less than a twentieth of the echo, though more than a hundredth of it
  /// where the echo is faint.
  @Test func aMicrophoneHearingOnlyItsHissIsSaidSilent() throws {
    let (output, echo) = try cable(clicks: 96)
    let silent = Self.lead + 8 * Self.spacing
    let energies = stride(from: silent, to: echo.count - 128, by: 128).map { first in
      echo[first..<(first + 128)].reduce(Float(0)) { $0 + $1 * $1 }
    }.filter { $0 > 0 }
    let mean = energies.reduce(0, +) / Float(energies.count)
    let hissEnergy = hiss(count: 128).reduce(Float(0)) { $0 + $1 * $1 }
    let scale = (0.005 * mean / hissEnergy).squareRoot()
    let noise = hiss(count: echo.count)
    let input = echo.indices.map { $0 < silent ? echo[$0] : scale * noise[$0] }
    #expect(energies.contains { 100 * scale * scale * hissEnergy > $0 }, "the hiss is over a hundredth somewhere")
    var silences = 0
    EchoPathCanceller.run(output, hearing: input) { _, _, _, canceller in silences = canceller.changes.silences }
    #expect(silences == 1)
  }
}

extension EchoPathCancellerTests {
  /// A volume turned is followed twice: from three clicks' readings, then from the five after.
  ///
  /// The second reading follows it more closely; each doubts the level anew, and the doubt
  /// settles over the segments heard alone and as loud after it. Turned again before the closer
  /// reading is made, the closer reading is forgotten, and made of the five after the new turn.
  /// The clicks are half a second apart, each heard to its answer's end before the next: a
  /// reading a click.
  @Test func aVolumeTurnedIsFollowedThenFollowedMoreCloselyAndItsDoubtSettles() throws {
    let spacing = 22_050
    let turns: [(click: Int, by: Float)] = [(8, 1.5), (20, 0.7), (23, 1.2)]
    let (output, echo) = try cable(clicks: 40, spacing: spacing, bars: 4, turns: turns)
    let input = zip(echo, hiss(count: echo.count)).map { $0 + $1 }
    var scaledOn: [Int] = []
    var doubtedOn: [Int] = []
    var levels = 0
    var left = 0
    var lastLevel: Float = 1
    EchoPathCanceller.run(output, hearing: input) { first, _, _, canceller in
      let click = (first - Self.lead + spacing / 2) / spacing
      if canceller.changes.levels > levels { scaledOn.append(click) }
      if canceller.levelDoubt.segmentsLeft > left { doubtedOn.append(click) }
      levels = canceller.changes.levels
      left = canceller.levelDoubt.segmentsLeft
      lastLevel = canceller.changes.lastLevel
    }
    #expect(scaledOn.count == 3 && abs(lastLevel - 1.2) < 0.01, "scaled on clicks \(scaledOn), last by \(lastLevel)")
    let interrupted = scaledOn.count == 3 && scaledOn[2] - scaledOn[1] < 5
    #expect(interrupted, "turned again before the closer reading: scaled on clicks \(scaledOn)")
    if interrupted {
      #expect(doubtedOn == [scaledOn[0], scaledOn[0] + 5, scaledOn[1], scaledOn[2], scaledOn[2] + 5], "\(doubtedOn)")
    }
    #expect(left == 0, "the doubt settled")
  }
}

extension EchoPathCancellerTests {
  /// A click cut at full scale teaches nothing, however alike it is heard each time: turned up
  /// until the input cuts it, its answer is not learned again from the cut shape, nor its level
  /// read from it.
  @Test func clicksCutAtFullScaleTeachNothing() throws {
    let (output, echo) = try cable(clicks: 24, spacing: 22_050, peak: 0.9, bars: 4, turns: [(8, 1.5)])
    let input = echo.map { min(max($0, -1), 1) }
    #expect(input.contains(1) || input.contains(-1), "the input cuts the clicks")
    var changes = CancellerChanges()
    EchoPathCanceller.run(output, hearing: input) { _, _, _, canceller in changes = canceller.changes }
    #expect(changes.learnedAgain == 0 && changes.levels == 0, "\(changes)")
  }
}

extension EchoPathCancellerTests {
  /// Once every sound is known, a hissing microphone's answers average its hiss over the clicks
  /// heard rather than copy the last click's: where the echo sounds, what is left is under 1.8
  /// times the hiss on average (an answer that copied it would leave twice: the hiss heard now
  /// and the hiss it copied).
  @Test func theAnswersAverageTheHissRatherThanCopyIt() throws {
    let spacing = 22_050
    let (output, echo) = try cable(clicks: 40, spacing: spacing, bars: 4)
    let hiss = hiss(count: echo.count).map { 4 * $0 }
    let input = zip(echo, hiss).map { $0 + $1 }
    var ratios: [Float] = []
    EchoPathCanceller.run(output, hearing: input) { first, cancelled, _, _ in
      let segment = first..<(first + cancelled.count)
      let echoEnergy = echo[segment].reduce(Float(0)) { $0 + $1 * $1 }
      guard first > 20 * spacing, echoEnergy > 1e-3 else { return }
      let hissEnergy = hiss[segment].reduce(Float(0)) { $0 + $1 * $1 }
      ratios.append(cancelled.reduce(Float(0)) { $0 + $1 * $1 } / hissEnergy)
    }
    let mean = ratios.reduce(0, +) / Float(ratios.count)
    #expect(ratios.count > 100 && mean < 1.8, "\(ratios.count) segments, \(mean) times the hiss")
  }
}

extension EchoPathCancellerTests {
  /// A direct sound moved is followed where two of the last three clicks' readings, of two
  /// sounds or more, agree within a frame of their median.
  ///
  /// A microphone swaying as it settles, 5, 6, 3 and 5 frames later: the first two after the move
  /// agree, beside the click before it, so it is followed by 5 on the second click. Heard 3, 7,
  /// 5 and 5 frames later, no two of the first three agree, nor do the next three of one sound
  /// alone count: it is followed on the fifth click, the accent's, by 5.
  @Test(arguments: [([5, 6, 3, 5], 1), ([3, 7, 5, 5], 4)] as [([Int], Int)])
  func aDirectSoundMovedIsFollowedWhereTwoOfThreeClicksAgreeWithinAFrame(heard: [Int], on click: Int) throws {
    let spacing = 22_050
    let moved = 12
    let delays = { (click: Int) in Self.delay + (click < moved ? 0 : heard[min(click - moved, heard.count - 1)]) }
    let (output, echo) = try cable(clicks: 24, spacing: spacing, bars: 4, delays: delays)
    var followed: [(click: Int, by: Int)] = []
    var changes = CancellerChanges()
    EchoPathCanceller.run(output, hearing: echo) { first, _, _, canceller in
      if canceller.changes.moves > changes.moves {
        followed.append(((first - Self.lead) / spacing, canceller.changes.lastMove))
      }
      changes = canceller.changes
    }
    #expect(followed.map(\.click) == [moved + click] && followed.map(\.by) == [5], "\(followed)")
  }
}

extension EchoPathCancellerTests {
  /// Where nothing changes, nothing is followed: through a steady cable, two sounds heard alike
  /// click after click, no level, move, answer learned again or silence is said.
  @Test func whereNothingChangesNothingIsFollowed() throws {
    let (output, echo) = try cable(clicks: 24, spacing: 22_050, bars: 4)
    var changes = CancellerChanges()
    EchoPathCanceller.run(output, hearing: echo) { _, _, _, canceller in changes = canceller.changes }
    #expect(changes == CancellerChanges(), "\(changes)")
  }
}

extension EchoPathCancellerTests {
  /// The clicks an answer is learned whole from say nothing of where the direct sound is: moved
  /// from the first click after them on (5, 6, 6 and 5 frames later, a microphone swaying), it is
  /// followed on the third click after, as anywhere else, not on the second with a click learned
  /// from counted among the three.
  @Test func theClicksLearnedWholeFromAreNotReadForTheDirectSound() throws {
    let spacing = 22_050
    let moved = [5, 6, 6, 5]
    let delays = { (click: Int) in Self.delay + (click < 2 ? 0 : moved[min(click - 2, moved.count - 1)]) }
    let (output, echo) = try cable(clicks: 12, spacing: spacing, bars: 2, delays: delays)
    let input = zip(echo, hiss(count: echo.count)).map { $0 + $1 }
    var followedOn: [Int] = []
    var moves = 0
    EchoPathCanceller.run(output, hearing: input) { first, _, _, canceller in
      if canceller.changes.moves > moves { followedOn.append((first - Self.lead) / spacing) }
      moves = canceller.changes.moves
    }
    #expect(followedOn == [4], "followed on clicks \(followedOn)")
  }
}

extension EchoPathCancellerTests {
  /// Every segment an echo is predicted in counts towards a second of it unheard, however faint,
  /// down to the edge of 1e-12 a segment: bursts heard at 1.5e-12 a segment (10 segments each,
  /// -139 dBFS), then not at all, are said silent once.
  @Test func anEchoJustOverTheEdgeOfNoneIsSaidSilentWhenUnheard() {
    let spacing = 11_025
    let amplitude = Float(1.5e-12 / 128).squareRoot()
    var output = [Float](repeating: 0, count: Self.lead + 96 * spacing)
    var input = output
    for click in 0..<96 {
      for index in 0..<1_280 {
        let frame = Self.lead + click * spacing + index
        output[frame] = index % 2 == 0 ? 0.5 : -0.5
        // Heard for the first eight clicks, then never again.
        if click < 8 { input[frame + Self.delay] = index % 2 == 0 ? amplitude : -amplitude }
      }
    }
    var silences = 0
    EchoPathCanceller.run(output, hearing: input) { _, _, _, canceller in silences = canceller.changes.silences }
    #expect(silences == 1)
  }
}
