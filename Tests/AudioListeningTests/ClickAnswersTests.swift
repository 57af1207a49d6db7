import Foundation
import MetronomeCore
import MetronomeTesting
import Testing

@testable import AudioListening

/// The room's answer to each click sound (`ClickAnswers`), as the room canceller learns and keeps
/// it: wherever in a run listening starts, and as sounds come and go.
@Suite(.timeLimit(.minutes(5))) struct ClickAnswersTests {
  /// The attacks a room canceller's listener finds in `input`, with `output` played, both from
  /// the output's frame `first` on; their frames counted from `first`.
  private func heard(_ input: [Float], playing output: [Float], from first: Int64) throws -> [Int] {
    try AudioHitListener(canceller: EchoPathCanceller(roundTrip: 0), sampleRate: SampleRate(RoomTake.sampleRate))
      .attacks(in: input, playing: output, from: first).map { Int($0.0.frame - first) }
  }

  /// A microphone connected ten minutes into a run (JACK's frames then count from 26 million)
  /// learns the room as one connected at the start: every stroke found within a millisecond and
  /// no click taken for one.
  @Test func listeningStartedTenMinutesIntoARunLearnsTheRoomAsFromTheStart() throws {
    let rate = try SampleRate(RoomTake.sampleRate)
    let take = try RoomTake(
      room: SimulatedRoom(size: (6, 5, 3), reverberation: 0.6, speaker: (1, 1, 1.5), microphone: (3, 1.4, 1.2)),
      clickLevel: -12, seed: 3)
    for first in [0, 600 * Int64(rate.hz)] {
      let found = try heard(take.input, playing: take.output, from: first)
      #expect(found.count == take.attacks.count, "from \(first): found \(found) for \(take.attacks)")
      let errors = zip(found, take.attacks).map { $0 - $1 }
      #expect(errors.allSatisfy { abs($0) <= rate.hz / 1_000 }, "from \(first): \(errors)")
    }
  }

  /// Normal and weak beats at 200 BPM in the corpus's rehearsal and living rooms (RT60 0.6 and
  /// 0.5 s, the click at -6 and 0 dB): one sound at two levels (a weak beat is the normal click at
  /// half its level), each click still ringing when the next sounds. (Not yet in its hall.)
  ///
  /// Where a sound's clicks overlap at two levels, the count-in's answers settle slowly as they
  /// are learned from again: with 12 passes, every weak beat's echo kept -31 dB of itself for the
  /// rest of the take, and four strokes more were missed or placed 3 to 5 ms off. Now, from the
  /// third click on, what is left of each click's echo is under -60 dB of it; every stroke the
  /// detector finds in the drums alone is found and placed within a millisecond, the others as
  /// they are alone; and no click from the fourth on is taken for a stroke.
  @Test(arguments: [RoomEchoTests.corpus[2], RoomEchoTests.corpus[4]])
  func oneSoundAtTwoLevelsRingingIntoEachOtherIsLearnedWhole(room: RoomEchoTests.Room) throws {
    let rate = try SampleRate(RoomTake.sampleRate)
    let take = try RoomTake(
      room: room.room, clickLevel: max(room.clickLevel, -6), beats: 40, spacing: 13_230, levels: [.normal, .weak],
      seed: 6)
    let left = cancelled(take.echo, playing: take.output)
    let leftDecibels = take.clicks.dropFirst(2).dropLast().map { click in
      let window = click..<(click + 13_230)
      let echo = window.map { take.echo[$0].magnitude }.max() ?? 0
      return 20 * log10(Double((window.map { left[$0].magnitude }.max() ?? 0) / echo))
    }
    #expect(leftDecibels.allSatisfy { $0 < -60 }, "\(leftDecibels.map { Int($0) })")
    let listener = AudioHitListener(canceller: EchoPathCanceller(roundTrip: 0), sampleRate: rate)
    let heard = HeardTake(take, heard: listener.attacks(in: take.input, playing: take.output))
    let drums = zip(take.input, take.echo).map { $0 - $1 }
    let alone = HeardTake(
      take,
      heard: AudioHitListener(canceller: EchoPathCanceller(roundTrip: 0), sampleRate: rate)
        .attacks(in: drums, playing: [Float](repeating: 0, count: drums.count)))
    let missedAlone = take.attacks.indices.filter { stroke in
      alone.strokes[stroke].map { abs($0.frame - take.attacks[stroke]) > rate.hz / 1_000 } ?? true
    }
    #expect(heard.wrong() == missedAlone, "wrong \(heard.wrong()), the drums alone \(missedAlone)")
    #expect(heard.strays(from: take.clicks[3]).isEmpty, "\(heard.strays)")
  }

  /// What a room canceller gives back of `input`, with `output` played, in cycles of 128 frames.
  private func cancelled(_ input: [Float], playing output: [Float]) -> [Float] {
    var given = [Float](repeating: 0, count: input.count)
    EchoPathCanceller.run(output, hearing: input) { first, cancelled, _, _ in
      for (index, sample) in cancelled.enumerated() { given[first + index] = sample }
    }
    return given
  }

  /// A sound of its own for each `index`: 441 frames of a decaying tone, its pitch the index's.
  private func tone(_ index: Int) -> [Float] {
    let hertz = 700 + 150 * Double(index)
    return (0..<441).map { Float(0.5 * exp(-Double($0) / 100) * sin(2 * .pi * hertz * Double($0) / 44_100)) }
  }

  /// A seventeenth sound takes the place of the first, and is learned anew there.
  ///
  /// Seventeen sounds, one after another, then the seventeenth again and again: sixteen are kept
  /// at once, and the new one is not heard through the answer the first left. Through a cable,
  /// its first click there is taken out from the direct path, no click is taken for a hit, and
  /// strokes as loud on its second click there and on one of its last are found.
  @Test func aSoundTakingTheFirstsPlaceIsLearnedAnew() throws {
    let spacing = 11_025
    // The first twice: its first click, heard before the input has heard anything, is heard in part.
    let order = [0] + Array(0..<17) + [Int](repeating: 16, count: 8)
    var output = [Float](repeating: 0, count: (order.count + 1) * spacing)
    for (click, sound) in order.enumerated() {
      for (index, sample) in tone(sound).enumerated() { output[1_000 + click * spacing + index] = sample }
    }
    var input = [Float](repeating: 0, count: output.count)
    for index in 300..<output.count { input[index] = 0.5 * output[index - 300] }
    // Its first click there is taken out by the direct path learned from the first clicks alone:
    // less than a hundredth of its echo is left.
    let firstThere = 1_000 + 17 * spacing + 300
    let left = cancelled(input, playing: output)[firstThere..<(firstThere + 441)]
    #expect(left.map(\.magnitude).max().map { $0 < 0.0025 } == true, "\(left.map(\.magnitude).max() ?? 0)")
    // Strokes on its second click in that place and on its last but one, as the cable brings them.
    let strokes = [18, order.count - 2].map { 1_000 + $0 * spacing + 300 }
    var random = SeededGenerator(seed: 9)
    for stroke in strokes {
      for index in 0..<2_000 {
        input[stroke + index] += 0.4 * Float(exp(-Double(index) / 200)) * Float.random(in: -1...1, using: &random)
      }
    }
    let found = try heard(input, playing: output, from: 0)
    #expect(
      found.count == strokes.count && zip(found, strokes).allSatisfy { abs($0 - $1) <= 44 },
      "found \(found) for \(strokes)")
  }
}

extension ClickAnswersTests {
  /// The answers' length here, as the room canceller's.
  private static let frames = EchoPathCanceller.responseFrames

  /// An answer of its own for each `sound`: its direct sound at lag 1,000 and something small and
  /// different on every other lag, the first included.
  private static func answer(_ sound: Int, at lag: Int) -> Float {
    lag == 1_000 ? 1 : 0.001 * Float((lag + 3 * sound) % 7 + 1)
  }

  /// Answers made whole for sounds 0 and 1, the first taking the direct sound's lag.
  private func twoAnswers() -> ClickAnswers {
    let answers = ClickAnswers(frames: Self.frames, lead: 0)
    let sounds = ClickSounds()
    for sound in 0..<2 { answers.replace(sound, with: { Self.answer(sound, at: $0) }, of: sounds) }
    return answers
  }

  /// What `answers` hold for `sound`, every lag.
  private func held(_ answers: ClickAnswers, _ sound: Int) -> [Float] {
    (0..<Self.frames).map { answers.answer(sound, at: $0) }
  }

  @Test func anAnswerMadeWholeIsHeldEveryLagAndTheFirstGivesTheDirectSound() {
    let answers = twoAnswers()
    #expect(held(answers, 0) == (0..<Self.frames).map { Self.answer(0, at: $0) })
    #expect(held(answers, 1) == (0..<Self.frames).map { Self.answer(1, at: $0) })
    #expect(answers.directLag == 1_000)
  }

  /// Moved later by 1 frame or by 5, or earlier by 9, every answer but the one kept follows, to
  /// the last lag and from the first (silence where nothing was), and the direct sound with them.
  @Test(arguments: [1, 5, -9])
  func answersMovedFollowEveryLagButTheOneKept(shift: Int) {
    let answers = twoAnswers()
    answers.move(by: shift, except: 1)
    let moved = (0..<Self.frames).map { lag in
      (0..<Self.frames).contains(lag - shift) ? Self.answer(0, at: lag - shift) : 0
    }
    #expect(held(answers, 0) == moved)
    #expect(held(answers, 1) == (0..<Self.frames).map { Self.answer(1, at: $0) })
    #expect(answers.directLag == 1_000 + shift)
  }

  /// A sound started anew in its place holds nothing of the answer there, from its first lag to
  /// its last; the other's is kept.
  @Test func aSoundStartedAnewHoldsNothingOfTheAnswerBefore() {
    let answers = twoAnswers()
    answers.start(0, from: 5_000)
    #expect(held(answers, 0).allSatisfy { $0 == 0 })
    #expect(held(answers, 1) == (0..<Self.frames).map { Self.answer(1, at: $0) })
  }

  @Test func answersScaledAreScaledEveryLag() {
    let answers = twoAnswers()
    answers.scale(by: 0.5)
    for sound in 0..<2 {
      #expect(held(answers, sound) == (0..<Self.frames).map { Self.answer(sound, at: $0) * 0.5 })
    }
  }
}

extension ClickAnswersTests {
  /// An answer with its direct sound at lag 1,000 whose energy then fades as `energy(lags after)`,
  /// the sign changing from lag to lag as a room's does.
  private static func fading(_ energy: @escaping (Double) -> Double) -> (Int) -> Float {
    { lag in
      guard lag >= 1_000 else { return 0 }
      return Float(energy(Double(lag - 1_000)).squareRoot()) * (lag % 3 == 0 ? -1 : 1)
    }
  }

  /// A room whose energy falls by e every so many frames is read as doing so, to a fiftieth of a
  /// percent, from a small room's 400 frames to a hall's 12,000.
  @Test(arguments: [400.0, 1_000, 4_000, 12_000])
  func theRoomsEnergyDecayIsReadFromTheFirstAnswer(decay: Double) {
    let read = ClickAnswers.energyDecay(of: Self.fading { exp(-$0 / decay) }, directLag: 1_000)
    #expect(abs(Double(read) / decay - 1) < 2e-4, "\(read) for \(decay)")
  }

  /// A cable's path (the direct sound alone), one fading faster than 256 frames, one that does not
  /// fade or that grows are read as 256 frames: nothing heard a beat later is its click's; one
  /// fading more slowly than 16,384 frames as 16,384.
  @Test func aDecayOutsideItsRangeIsReadAtItsEnds() {
    let cases: [(String, (Double) -> Double, Float)] = [
      ("a cable", { $0 == 0 ? 1 : 0 }, 256), ("100 frames", { exp(-$0 / 100) }, 256), ("steady", { _ in 0.01 }, 256),
      ("growing", { exp($0 / 4_000) * 0.01 }, 256), ("50,000 frames", { exp(-$0 / 50_000) }, 16_384),
    ]
    for (name, energy, expected) in cases {
      #expect(ClickAnswers.energyDecay(of: Self.fading(energy), directLag: 1_000) == expected, "\(name)")
    }
  }
}

extension ClickAnswersTests {
  /// A click of 100 frames, ringing down from its first.
  private static let click = (0..<100).map { Float(0.5 * cos(Double($0) * 0.3) * exp(-Double($0) / 50)) }

  /// One sound played at frame 100, then at `level` of it at frame 300, gathered with what the
  /// input hears from frame 400 on (128 frames), nothing of its answer known yet.
  private func twoClicks(_ level: Float) -> (ClickAnswers, ClickSounds) {
    var output = [Float](repeating: 0, count: 600)
    for (index, sample) in Self.click.enumerated() {
      output[100 + index] = sample
      output[300 + index] = level * sample
    }
    let sounds = ClickSounds()
    output.withUnsafeBufferPointer { sounds.played($0, from: 0) { _, _ in } }
    let answers = ClickAnswers(frames: 1_024, lead: 0)
    // The input has heard something from frame 0 on: both clicks are heard whole.
    _ = answers.gather(sounds, at: 0, count: 128, hearing: true)
    _ = answers.gather(sounds, at: 400, count: 128, hearing: true)
    return (answers, sounds)
  }

  /// What is left unexplained on each frame from frame 400 on, as the tests below give it.
  private static let left = (0..<128).map { Float(0.01 * sin(Double($0))) }

  /// Learning from what only the click heard most explains on each frame: that click's answer
  /// alone moves, by what is left over its level, whichever of the two it is.
  ///
  /// Until the room is known, a click's share fades by e every 256 frames: the second click, 200
  /// frames later, is heard more than the first at 0.9 of its level (its energy times its level's
  /// square, 0.9⁴·e^(200/256) = 1.43 of the first's), and less at half its level (0.14).
  @Test(arguments: [(Float(0.9), true), (0.5, false)])
  func onlyTheClickHeardMostLearns(level: Float, secondIsLoudest: Bool) {
    let (answers, _) = twoClicks(level)
    Self.left.withUnsafeBufferPointer { answers.learn($0, at: 400, step: 1, sharing: .loudest) }
    // The second click is 100 frames into its answer at frame 400, the first 300.
    let second = (0..<128).map { answers.answer(0, at: 100 + $0) }
    let first = (0..<128).map { answers.answer(0, at: 300 + $0) }
    let (moved, still, by) = secondIsLoudest ? (second, first, level) : (first, second, 1)
    #expect(zip(moved, Self.left).allSatisfy { abs($0 - $1 / by) <= 1e-6 * abs($1 / by) + 1e-12 })
    #expect(still.allSatisfy { $0 == 0 })
  }

  /// Shared among all the clicks, what is left is explained exactly by the step, and each click
  /// takes its part by its energy, its level and how much of it the room still holds.
  @Test func sharedAmongAllEachClickTakesItsPart() {
    let (answers, _) = twoClicks(0.9)
    Self.left.withUnsafeBufferPointer { answers.learn($0, at: 400, step: 1, sharing: .all) }
    for index in [0, 1, 37, 127] where Self.left[index] != 0 {
      let second = answers.answer(0, at: 100 + index)
      let first = answers.answer(0, at: 300 + index)
      #expect(abs(first + 0.9 * second - Self.left[index]) <= 1e-6, "frame \(400 + index)")
      // Shares as w·E·g: the second's energy is 0.81 of the first's, its weight e^(200/256) more.
      let expected = Float(0.81 * 0.9 * exp(200.0 / 256))
      #expect(abs(second / first / expected - 1) <= 1e-4, "frame \(400 + index): \(second / first)")
    }
  }
}

extension ClickAnswersTests {
  /// The first answer heard whole: its direct sound at lag 300, the room fading after it by e in
  /// energy every 1,000 frames, and before it something small (another click's sound, heard
  /// while both were learned).
  private static func firstHeard(at lag: Int) -> Float {
    guard lag >= 300 else { return 0.002 * Float(lag % 5 + 1) }
    return lag == 300 ? 1 : Float(0.3 * exp(-Double(lag - 300) / 2_000)) * (lag % 3 == 0 ? -1 : 1)
  }

  /// Once the first answer's direct sound is known, what every answer learned more than 64 frames
  /// before it is cleared, and the room's decay read from it weighs the shares: two clicks 200
  /// frames apart, both after their direct sound, share by e^(200/1,000), not by the 256 frames
  /// taken before.
  @Test func theFirstDirectSoundClearsWhatCameBeforeItAndWeighsTheShares() {
    var output = [Float](repeating: 0, count: 21_000)
    for (first, level) in [(0, Float(1)), (20_000, 1), (20_200, 0.9)] {
      for (index, sample) in Self.click.enumerated() { output[first + index] = level * sample }
    }
    let sounds = ClickSounds()
    output.withUnsafeBufferPointer { sounds.played($0, from: 0) { _, _ in } }
    // Answers as long as the lags the direct sound is looked for in, the round trip given at 300.
    let frames = 12_288
    let answers = ClickAnswers(frames: frames, lead: 300)
    // Another sound's answer, where nothing stands out.
    answers.replace(1, with: { _ in 0.001 }, of: sounds)
    for reference in stride(from: 0, to: frames, by: 128) {
      _ = answers.gather(sounds, at: Int64(reference), count: 128, hearing: true)
      let heard = (0..<128).map { Self.firstHeard(at: reference + $0) }
      heard.withUnsafeBufferPointer { heard in
        answers.learn(heard, at: Int64(reference), step: 1, sharing: .all)
        _ = answers.heard(heard, at: Int64(reference), learning: true, of: sounds)
      }
      // Taken as soon as as many lags are heard as it is looked for in and after.
      #expect((answers.directLag != nil) == (reference + 128 >= DirectPath.heard), "at \(reference)")
    }
    #expect(answers.directLag == 300)
    #expect((0..<236).allSatisfy { answers.answer(0, at: $0) == 0 && answers.answer(1, at: $0) == 0 })
    #expect((236..<1_000).allSatisfy { answers.answer(0, at: $0) == Self.firstHeard(at: $0) })
    #expect((236..<frames).allSatisfy { answers.answer(1, at: $0) == 0.001 })
    _ = answers.gather(sounds, at: 20_800, count: 128, hearing: true)
    Self.left.withUnsafeBufferPointer { answers.learn($0, at: 20_800, step: 1, sharing: .all) }
    let expected = Float(0.81 * 0.9 * exp(200.0 / 1_000))
    for index in [1, 37, 127] {
      let ratio =
        (answers.answer(0, at: 600 + index) - Self.firstHeard(at: 600 + index))
        / (answers.answer(0, at: 800 + index) - Self.firstHeard(at: 800 + index))
      #expect(abs(ratio / expected - 1) <= 1e-3, "frame \(20_800 + index): \(ratio)")
    }
  }
}
