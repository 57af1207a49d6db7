import Foundation
import Testing

@testable import AudioListening

/// The room's answers at their edges: which clicks they take for a segment of what the input
/// hears, to the frame; how much of what was heard while they were first learned is learned from
/// again; how each click's share is weighed; and a direct sound heard a frame late.
@Suite(.timeLimit(.minutes(2))) struct ClickAnswersEdgeTests {
  /// Two click sounds of four frames, told apart by their shapes.
  private static let first: [Float] = [0.5, -0.3, 0.2, -0.1]
  private static let second: [Float] = [0.2, 0.4, -0.4, 0.1]

  /// The sounds of an output holding `clicks` at their frames, played to its end.
  private static func sounds(_ clicks: [(frame: Int, samples: [Float])]) -> ClickSounds {
    var output = [Float](repeating: 0, count: (clicks.map { $0.frame + $0.samples.count }.max() ?? 0) + 64)
    for click in clicks {
      for (index, sample) in click.samples.enumerated() { output[click.frame + index] = sample }
    }
    let sounds = ClickSounds()
    output.withUnsafeBufferPointer { sounds.played($0, from: 0) { _, _ in } }
    return sounds
  }

  /// Answers of 1,024 frames, the input heard from frame 0 on.
  private static func answers(of sounds: ClickSounds, frames: Int = 1_024) -> ClickAnswers {
    let answers = ClickAnswers(frames: frames, lead: 0)
    _ = answers.gather(sounds, at: 0, count: 128, hearing: true)
    return answers
  }

  /// A click on frame 1,000 sounds in a segment of 128 frames from 873 (its last frame) through
  /// 2,023 (its answer's last): not in the segment before, nor once its answer has ended.
  @Test(arguments: [(872, false), (873, true), (2_023, true), (2_024, false)])
  func aSegmentTakesTheClicksSoundingInIt(reference: Int64, sounding: Bool) {
    let sounds = Self.sounds([(1_000, Self.first)])
    let answers = Self.answers(of: sounds)
    _ = answers.gather(sounds, at: reference, count: 128, hearing: true)
    #expect(answers.gathered.map(\.frame) == (sounding ? [1_000] : []))
  }

  /// A sound started anew from a frame hears its click on that frame, and not one before.
  @Test(arguments: [(5_000, true), (5_001, false)])
  func aSoundStartedAnewHearsItsClicksFromItsFrame(from frame: Int64, heard: Bool) {
    let sounds = Self.sounds([(0, Self.first), (5_000, Self.first)])
    let answers = ClickAnswers(frames: 1_024, lead: 0)
    answers.start(0, from: frame)
    _ = answers.gather(sounds, at: 4_900, count: 128, hearing: true)
    #expect(answers.gathered.map(\.frame) == (heard ? [5_000] : []))
  }

  /// A click the input began hearing only after it sounded (a microphone connected late) is
  /// heard in part while it is within 1.5 s of the first click played, to the frame, however far
  /// into the run that first click was.
  @Test(arguments: [(0, true), (1, false)])
  func aClickHeardInPartIsToldWithinOnePointFiveSeconds(past: Int, inPart: Bool) {
    let start = 100_000
    let later = start + ClickAnswers.wholeFrames + past
    let sounds = Self.sounds([(start, Self.first), (later, Self.first)])
    let answers = ClickAnswers(frames: 1_024, lead: 0)
    _ = answers.gather(sounds, at: Int64(start), count: 128, hearing: false)
    _ = answers.gather(sounds, at: Int64(later + 10), count: 128, hearing: true)
    #expect(answers.gathered.isEmpty)
    #expect(answers.heardInPart == inPart)
  }

  /// A sound first heard within 1.5 s of the first click, to the frame, is learned whole, its
  /// second click too; one first heard a frame later starts from the direct path.
  @Test(arguments: [(0, true), (1, false)])
  func aSoundFirstHeardWithinOnePointFiveSecondsIsLearnedWhole(past: Int, whole: Bool) {
    let firstHeard = ClickAnswers.wholeFrames + past
    let sounds = Self.sounds([(0, Self.first), (firstHeard, Self.second), (firstHeard + 300, Self.second)])
    let answers = Self.answers(of: sounds)
    #expect(answers.gather(sounds, at: Int64(firstHeard - 127), count: 128, hearing: true) == whole)
    #expect(answers.gather(sounds, at: Int64(firstHeard + 173), count: 128, hearing: true) == whole)
    #expect(answers.gathered.map(\.frame) == [Int64(firstHeard + 300), Int64(firstHeard)])
  }

  /// At most 64 clicks sound at once: of 70 clicks 20 frames apart, all within an answer of
  /// 2,048 frames, the latest 64 are taken.
  @Test func theLatestSixtyFourClicksAreTakenAtOnce() {
    let sounds = Self.sounds((0..<70).map { ($0 * 20, Self.first) })
    let answers = Self.answers(of: sounds, frames: 2_048)
    _ = answers.gather(sounds, at: 1_400, count: 1, hearing: true)
    #expect(answers.gathered.map(\.frame) == (6..<70).reversed().map { Int64($0 * 20) })
  }

  /// What is heard while answers are learned is kept for 2^17 frames (2.7 s at 48 kHz): a stretch
  /// of learning longer than that keeps what was heard since, and is learned from again 60 times
  /// once the learning ends, 128 segments a call: kept 100 segments long, the 60th pass ends in
  /// the 47th call (6,001 segments in, the first of them finding the 60 passes done).
  @Test func aLearningStretchKeepsItsLast2To17FramesAndIsLearnedFromSixtyTimes() {
    let sounds = Self.sounds([])
    let answers = ClickAnswers(frames: 1_024, lead: 0)
    let silence = [Float](repeating: 0, count: 128)
    let stretch: Int64 = (1 << 17) + 128 + 12_800
    silence.withUnsafeBufferPointer { heard in
      for reference in stride(from: 0, to: stretch, by: 128) {
        _ = answers.heard(heard, at: reference, learning: true, of: sounds)
      }
      #expect(answers.rehearsed == ((1 << 17) + 128)..<stretch)
      _ = answers.heard(heard, at: stretch, learning: false, of: sounds)
    }
    var calls = 0
    while answers.rehearsed != nil, calls < 100 {
      answers.rehearse(sounds)
      calls += 1
    }
    #expect(calls == 47)
  }

  /// A stretch of learning that comes back while the one before is still learned from again
  /// stops that; the new stretch (128 segments) is then learned from 60 times, from its start: the
  /// 60th pass is the 60th call's, and the 61st finds it done.
  @Test func learningAnewStopsTheRehearsalAndTheNextOneIsWhole() {
    let sounds = Self.sounds([])
    let answers = ClickAnswers(frames: 1_024, lead: 0)
    let silence = [Float](repeating: 0, count: 128)
    silence.withUnsafeBufferPointer { heard in
      for reference in stride(from: Int64(0), to: 16_384, by: 128) {
        _ = answers.heard(heard, at: reference, learning: true, of: sounds)
      }
      _ = answers.heard(heard, at: 16_384, learning: false, of: sounds)
      for _ in 0..<5 { answers.rehearse(sounds) }
      for reference in stride(from: Int64(40_000), to: 56_384, by: 128) {
        _ = answers.heard(heard, at: reference, learning: true, of: sounds)
      }
      #expect(answers.rehearsed == 40_000..<56_384)
      _ = answers.heard(heard, at: 56_384, learning: false, of: sounds)
    }
    var calls = 0
    while answers.rehearsed != nil, calls < 100 {
      answers.rehearse(sounds)
      calls += 1
    }
    #expect(calls == 61)
  }

  /// An answer whose direct sound is at `lag`, 1 there and nothing elsewhere.
  private static func direct(at lag: Int) -> (Int) -> Float { { $0 == lag ? 1 : 0 } }

  /// Until a direct sound is known, each lag's share falls by e every 256 frames from lag 0; once
  /// it is, by e every 256 frames after it (the room's decay not read yet) and every 8 before it,
  /// where far enough before it nothing is left.
  @Test func eachLagIsWeighedFromTheDirectSound() {
    let sounds = Self.sounds([(0, Self.first)])
    let answers = ClickAnswers(frames: 12_288, lead: 0)
    #expect(answers.weight(atLag: 0) == 1)
    #expect(abs(answers.weight(atLag: 256) - exp(-1)) <= 1e-6)
    answers.replace(0, with: Self.direct(at: 300), of: sounds)
    #expect(answers.directLag == 300)
    #expect(answers.weight(atLag: 300) == 1)
    #expect(abs(answers.weight(atLag: 556) - exp(-1)) <= 1e-6)
    #expect(abs(answers.weight(atLag: 292) - exp(-1)) <= 1e-6)
    #expect(abs(answers.weight(atLag: 0) / exp(-300 / 8) - 1) <= 1e-4)
  }

  /// Where no click is expected to be heard at all (lags a thousand frames and more before the
  /// direct sound), what is left moves no answer: nothing is shared out of nothing.
  @Test func whereNoClickIsExpectedNothingIsLearned() {
    let sounds = Self.sounds([(0, Self.first)])
    let answers = ClickAnswers(frames: 12_288, lead: 0)
    answers.replace(0, with: Self.direct(at: 2_000), of: sounds)
    #expect((0..<128).allSatisfy { answers.weight(atLag: $0) == 0 })
    _ = answers.gather(sounds, at: 0, count: 128, hearing: true)
    let left = [Float](repeating: 0.01, count: 128)
    left.withUnsafeBufferPointer { answers.learn($0, at: 0, step: 1, sharing: .all) }
    #expect((0..<2_100).allSatisfy { answers.answer(0, at: $0) == Self.direct(at: 2_000)($0) })
  }

  /// The answers after the first click's, on frame 0, is heard as `heard(lag)` until its direct
  /// sound is taken, the round trip given at `lead`, with another sound's click on frame -301;
  /// what each segment's `heard` said, and the clicks the segment after the first move took.
  private static func learnFirst(lead: Int, heard: (Int) -> Float) -> (
    answers: ClickAnswers, shifts: [Int64], gatheredAfter: [Int64]
  ) {
    let sounds = ClickSounds()
    var output = [Float](repeating: 0, count: 1_064)
    for (index, sample) in Self.first.enumerated() { output[1_000 + index] = sample }
    for (index, sample) in Self.second.enumerated() { output[699 + index] = sample }
    output.withUnsafeBufferPointer { sounds.played($0, from: -1_000) { _, _ in } }
    let answers = ClickAnswers(frames: 12_288, lead: lead)
    var shifts: [Int64] = []
    var gatheredAfter: [Int64] = []
    for reference in stride(from: 0, to: 11_008, by: 128) {
      _ = answers.gather(sounds, at: Int64(reference), count: 128, hearing: true)
      if shifts.contains(where: { $0 != 0 }), gatheredAfter.isEmpty {
        gatheredAfter = answers.gathered.map(\.frame)
      }
      let segment = (0..<128).map { heard(reference + $0) }
      segment.withUnsafeBufferPointer { segment in
        answers.learn(segment, at: Int64(reference), step: 1, sharing: .all)
        shifts.append(answers.heard(segment, at: Int64(reference), learning: true, of: sounds))
      }
    }
    return (answers, shifts, gatheredAfter)
  }

  /// A first direct sound a frame later than the round trip given moves every answer a frame earlier.
  ///
  /// From then on the input is taken to have heard the output from a frame earlier: a click of
  /// another sound on that frame, heard in part before, is heard whole. The room's decay is read
  /// from that first answer (e every 1,000 frames in energy).
  @Test func aDirectSoundOneFrameLateMovesTheAnswersAndWhatWasHeard() {
    let (answers, shifts, gatheredAfter) = Self.learnFirst(lead: 300) { lag in
      lag < 301 ? 0 : (lag == 301 ? 1 : Float(0.3 * exp(-Double(lag - 301) / 2_000)) * (lag % 3 == 0 ? -1 : 1))
    }
    #expect(shifts.filter { $0 != 0 } == [1])
    #expect(answers.directLag == 300)
    #expect(gatheredAfter == [0, -301])
    #expect(abs(answers.weight(atLag: 1_300) / exp(-1) - 1) <= 1e-3)
  }

  /// A direct sound within 64 frames of the answer's start, where the round trip given was too
  /// long, clears nothing learned before it: there is nothing before it to clear.
  @Test func aDirectSoundNearTheAnswersStartClearsNothing() {
    let (answers, shifts, _) = Self.learnFirst(lead: 30) { lag in lag == 0 ? 0.01 : (lag == 30 ? 1 : 0) }
    #expect(shifts.allSatisfy { $0 == 0 })
    #expect(answers.directLag == 30)
    #expect(answers.answer(0, at: 0) == 0.01 || answers.answer(1, at: 0) == 0.01)
  }

  /// A sound first heard after 1.5 s starts from the direct path fitted to the first answer, its
  /// direct sound where that one's is; one that would ring past the end of its answer is cut
  /// there, and nothing is written into the next sound's.
  @Test func aSoundFirstHeardLateStartsFromTheDirectPathWithinItsAnswer() {
    let long = (0..<6_000).map { Float(0.5 * sin(Double($0) * 0.2) + 0.25) }
    let late = ClickAnswers.wholeFrames + 1_000
    let sounds = Self.sounds([(0, Self.first), (late, long)])
    let answers = ClickAnswers(frames: 12_288, lead: 0)
    _ = answers.gather(sounds, at: 0, count: 128, hearing: true)
    answers.replace(0, with: Self.direct(at: 7_000), of: sounds)
    #expect(!answers.gather(sounds, at: Int64(late), count: 128, hearing: true))
    #expect(answers.isAnswered(1))
    #expect((6_990..<7_010).contains { answers.answer(1, at: $0) != 0 })
    #expect((0..<6_990).allSatisfy { answers.answer(1, at: $0) == 0 })
    #expect((0..<12_288).allSatisfy { answers.answer(2, at: $0) == 0 })
  }
}
