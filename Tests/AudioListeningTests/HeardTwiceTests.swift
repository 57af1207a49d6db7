import Testing

@testable import AudioListening

/// Each click of a sound heard on its own: two heard alike and unlike the answer teach it, each
/// says how loud it came back, and one heard as the last was says the echo changed there.
@Suite(.timeLimit(.minutes(5))) struct HeardTwiceTests {
  /// The frames of each answer: past the 4,096 over which a level is read.
  private static let frames = 4_352
  /// Where the answer's direct sound is.
  private static let directLag = 64

  /// An answer with its energy spread evenly: a square wave near 1 kHz at 44.1 kHz.
  private static func answer(_ lag: Int) -> Float { lag % 44 < 22 ? 0.3 : -0.3 }

  /// A click of `sound` played at `frame`.
  private static func click(_ frame: Int64, sound: Int = 3) -> ClickSounds.Click {
    ClickSounds.Click(frame: frame, sound: sound, gain: 1, energy: 1)
  }

  /// Hears `click` whole, 128 lags at a time, as `heard` (at each lag) against `answer`, whose
  /// direct sound is at `directLag`, the segments from `unclean` on not to be trusted: the verdict
  /// of each segment.
  private static func hear(
    _ click: ClickSounds.Click, by heardTwice: HeardTwice, as heard: (Int) -> Float,
    answer: @escaping (Int) -> Float = answer, others: (Int) -> Float = { _ in 0 }, unclean: Int = .max,
    directLag: Int? = directLag
  ) -> [HeardTwice.Verdict] {
    stride(from: 0, to: frames, by: 128).map { start in
      heardTwice.hear(
        click, lags: 0..<min(128, frames - start), from: start, directLag: directLag, clean: start < unclean,
        heard: { heard(start + $0) }, answer: { answer(start + $0) }, others: { others(start + $0) })
    }
  }

  /// Two clicks running heard alike, by less than -40 dB, and unlike the answer: the second teaches
  /// what they heard; alike by more, nothing is learned.
  @Test(arguments: [(0.009, true), (0.011, false)] as [(Float, Bool)])
  func twoClicksHeardAlikeAndUnlikeTheAnswerTeachIt(apart: Float, learned: Bool) {
    let heardTwice = HeardTwice(frames: Self.frames)
    let first = Self.hear(Self.click(0), by: heardTwice) { 0.5 * Self.answer($0) }
    #expect(!first.contains { $0.learned })
    #expect(first.last?.whole == true)
    let second = Self.hear(Self.click(10_000), by: heardTwice) { 0.5 * (1 + apart) * Self.answer($0) }
    #expect(second.last?.learned == learned)
    #expect(second.dropLast().allSatisfy { !$0.learned })
    if learned {
      for lag in [0, 100] {
        let mean = 0.5 * (1 + apart / 2) * Self.answer(lag)
        #expect(abs(heardTwice.learned(3, at: lag) - mean) < 1e-6)
      }
    }
  }

  /// Heard alike, the answer is learned again only where it is off what they heard by more than
  /// -30 dB.
  @Test(arguments: [(0.03, false), (0.035, true)] as [(Float, Bool)])
  func theAnswerIsLearnedAgainOnlyWhereItIsOffWhatWasHeard(off: Float, learned: Bool) {
    let heardTwice = HeardTwice(frames: Self.frames)
    _ = Self.hear(Self.click(0), by: heardTwice) { (1 + off) * Self.answer($0) }
    let second = Self.hear(Self.click(10_000), by: heardTwice) { (1 + off) * Self.answer($0) }
    #expect(second.last?.learned == learned)
  }

  /// A sound forgotten between two clicks heard alike learns nothing from them; nor does a click
  /// with a segment not to be trusted, which is not heard whole either and reads no level.
  @Test func aForgottenSoundOrAnInputNotToBeTrustedTeachesNothing() {
    let forgetting = HeardTwice(frames: Self.frames)
    _ = Self.hear(Self.click(0), by: forgetting) { 0.5 * Self.answer($0) }
    forgetting.forget(3)
    #expect(Self.hear(Self.click(10_000), by: forgetting) { 0.5 * Self.answer($0) }.last?.learned == false)
    #expect(Self.hear(Self.click(20_000), by: forgetting) { 0.5 * Self.answer($0) }.last?.learned == true)

    let unclean = HeardTwice(frames: Self.frames)
    _ = Self.hear(Self.click(0), by: unclean) { 0.5 * Self.answer($0) }
    let cut = Self.hear(Self.click(10_000), by: unclean, as: { 0.5 * Self.answer($0) }, unclean: 1_024)
    #expect(cut.last?.learned == false && cut.last?.whole == false)
    #expect(cut.allSatisfy { $0.level == nil })
    let after = Self.hear(Self.click(20_000), by: unclean) { 0.5 * Self.answer($0) }
    #expect(after.last?.learned == false, "a click after one not to be trusted has none before it")
  }

  /// A click forgotten while it is heard is not heard on: the next segments wait for a click of
  /// its own, heard from its start.
  @Test func aClickForgottenWhileHeardIsHeardNoFurther() {
    let heardTwice = HeardTwice(frames: Self.frames)
    let click = Self.click(0)
    _ = heardTwice.hear(
      click, lags: 0..<128, from: 0, directLag: Self.directLag, clean: true, heard: Self.answer,
      answer: Self.answer, others: { _ in 0 })
    heardTwice.forget(3)
    let rest = stride(from: 128, to: Self.frames, by: 128).map { start in
      heardTwice.hear(
        click, lags: 0..<min(128, Self.frames - start), from: start, directLag: Self.directLag, clean: true,
        heard: { Self.answer(start + $0) }, answer: { Self.answer(start + $0) }, others: { _ in 0 })
    }
    #expect(rest.allSatisfy { !$0.whole && $0.level == nil })
  }

  /// A click heard only from part of the way through, or starting while another of its sound is
  /// still heard, is not heard at all; one starting as the other's answer ends is.
  @Test func aClickNotHeardFromItsStartIsNotHeard() {
    let heardTwice = HeardTwice(frames: Self.frames)
    let late = stride(from: 128, to: Self.frames, by: 128).map { start in
      heardTwice.hear(
        Self.click(0), lags: 0..<min(128, Self.frames - start), from: start, directLag: Self.directLag,
        clean: true, heard: { 2 * Self.answer(start + $0) }, answer: { Self.answer(start + $0) }, others: { _ in 0 })
    }
    #expect(late.allSatisfy { !$0.whole && $0.level == nil })
    _ = heardTwice.hear(
      Self.click(10_000), lags: 0..<128, from: 0, directLag: Self.directLag, clean: true,
      heard: { 2 * Self.answer($0) }, answer: Self.answer, others: { _ in 0 })
    let overlapping = Self.hear(Self.click(10_000 + Int64(Self.frames) - 1), by: heardTwice) { 2 * Self.answer($0) }
    #expect(overlapping.allSatisfy { !$0.whole && $0.level == nil })
    let next = Self.hear(Self.click(10_000 + Int64(Self.frames)), by: heardTwice) { 2 * Self.answer($0) }
    #expect(next.last?.whole == true)
  }

  /// How loud a click came back is read once its first 4,096 frames are heard, and only then: the
  /// click's own answer and, with the other clicks sounding, everything against all the answers;
  /// never where its direct sound is not known.
  @Test func theLevelIsReadOnceTheFirst4096FramesAreHeard() throws {
    let heardTwice = HeardTwice(frames: Self.frames)
    // The click heard twice as loud, the others (a quarter of a period later) as predicted.
    let verdicts = Self.hear(
      Self.click(0), by: heardTwice, as: { 2 * Self.answer($0) }, others: { 0.5 * Self.answer($0 + 11) })
    let read = verdicts.indices.filter { verdicts[$0].level != nil }
    #expect(read == [4_096 / 128 - 1])
    let verdict = verdicts[4_096 / 128 - 1]
    #expect(abs(try #require(verdict.level) - 2) < 1e-5)
    // Everything heard against all the answers: 2 a + 0.5 b against a + 0.5 b, from 1.67 to 1.89
    // chunk by chunk, as the chunks hold the two's changes.
    let overall = try #require(verdict.overall)
    #expect(overall > 1.6 && overall < 1.9, "\(overall)")
    let unplaced = Self.hear(Self.click(10_000), by: heardTwice, as: { 2 * Self.answer($0) }, directLag: nil)
    #expect(unplaced.allSatisfy { $0.level == nil }, "no direct sound known, nothing to read it against")
  }

  /// The level is read only where the direct sound alone reads the same within 5 %.
  @Test(arguments: [(1.04, true), (1.06, false)] as [(Float, Bool)])
  func theLevelIsReadOnlyWhereTheDirectSoundAgrees(rest: Float, read: Bool) {
    let heardTwice = HeardTwice(frames: Self.frames)
    let direct = (Self.directLag + 192)
    let verdicts = Self.hear(Self.click(0), by: heardTwice) { lag in
      (lag < direct ? 2 : 2 * rest) * Self.answer(lag)
    }
    #expect(verdicts.contains { $0.level != nil } == read)
  }

  /// What is heard as the click before of the same sound heard it, to -60 dB, and unlike the
  /// answer by more than -20 dB, is the echo changed; a stroke's difference, or an answer that
  /// still explains it, is not.
  @Test(
    arguments: [(0, 0.5, true), (0.0005, 0.5, true), (0.0011, 0.5, false), (0, 0.12, true), (0, 0.09, false)]
      as [(Float, Float, Bool)])
  func whatIsHeardAsTheClickBeforeIsTheEchoChanged(apart: Float, off: Float, changed: Bool) {
    let heardTwice = HeardTwice(frames: Self.frames)
    _ = Self.hear(Self.click(0), by: heardTwice) { (1 + off) * Self.answer($0) }
    let second = Self.hear(Self.click(10_000), by: heardTwice) { (1 + off) * (1 + apart) * Self.answer($0) }
    // Each segment on its own, the first as the last.
    #expect(second.allSatisfy { $0.changedHere == changed })
  }

  /// Two clicks heard alike however quiet: at 0.05 of the answer (an energy under 1 over the
  /// whole answer), the second still teaches.
  @Test func twoQuietClicksHeardAlikeTeachToo() {
    let heardTwice = HeardTwice(frames: Self.frames)
    _ = Self.hear(Self.click(0), by: heardTwice) { 0.05 * Self.answer($0) }
    let second = Self.hear(Self.click(10_000), by: heardTwice) { 0.05 * Self.answer($0) }
    #expect(second.last?.learned == true)
  }

  /// Nothing heard twice (a microphone unplugged) is not the echo changed, though it is unlike the
  /// answer; nor is a click heard as the last was where the input is not to be trusted.
  @Test func silenceOrAnInputNotToBeTrustedIsNotTheEchoChanged() {
    let silent = HeardTwice(frames: Self.frames)
    _ = Self.hear(Self.click(0), by: silent) { _ in 0 }
    #expect(Self.hear(Self.click(10_000), by: silent) { _ in 0 }.allSatisfy { !$0.changedHere })
    let unclean = HeardTwice(frames: Self.frames)
    _ = Self.hear(Self.click(0), by: unclean) { 1.5 * Self.answer($0) }
    let cut = Self.hear(Self.click(10_000), by: unclean, as: { 1.5 * Self.answer($0) }, unclean: 0)
    #expect(cut.allSatisfy { !$0.changedHere })
  }

  /// Heard whole, the click's direct sound is found where it moved to, within the frames searched
  /// either way; a click heard with nothing like the answer's direct sound has none.
  @Test(arguments: [-7, 0, 5])
  func aClickHeardWholeHasItsDirectSoundFoundWhereItMoved(moved: Int) {
    let heardTwice = HeardTwice(frames: Self.frames)
    let answer = { (lag: Int) -> Float in lag >= Self.directLag && lag < Self.directLag + 30 ? Float(lag % 7) : 0 }
    _ = Self.hear(Self.click(0), by: heardTwice, as: { answer($0 - moved) }, answer: answer)
    #expect(heardTwice.shift(of: 3, near: Self.directLag, within: 16, answer: answer) == moved)
    #expect(heardTwice.shift(of: 3, near: Self.directLag, within: 16, answer: { _ in 0 }) == nil)
  }

  /// The direct sound is matched from 64 frames before the answer's to 48 after, not a frame
  /// more either way: a spike in what was heard just past either end (where the match moved by 3
  /// would read it) leaves the move found; and from the earliest frame the search can read, 17
  /// frames in with 16 searched either way, where an answer's one step is.
  @Test(arguments: [251, 137]) func theDirectSoundIsMatchedOverItsOwnFramesOnly(spikeAt: Int) {
    let heardTwice = HeardTwice(frames: Self.frames)
    let answer = { (lag: Int) -> Float in lag >= 200 && lag < 230 ? Float(lag % 7) : 0 }
    _ = Self.hear(Self.click(0), by: heardTwice, as: { answer($0 - 3) + ($0 == spikeAt ? 100 : 0) }, answer: answer)
    #expect(heardTwice.shift(of: 3, near: 200, within: 16, answer: answer) == 3)
    let step = { (lag: Int) -> Float in lag >= 17 ? 1 : 0 }
    let early = HeardTwice(frames: Self.frames)
    _ = Self.hear(Self.click(0), by: early, as: { step($0 - 2) }, answer: step)
    #expect(early.shift(of: 3, near: 64, within: 16, answer: step) == 2)
  }

  /// The search reads only its own sound's frames: where the direct sound is near the answer's
  /// start or end and the move at the search's edge, the clicks of the sounds kept either side
  /// of it, heard loud to their ends, lean nothing.
  @Test func theSearchReadsOnlyItsOwnSoundsFrames() {
    let heardTwice = HeardTwice(frames: Self.frames)
    let loud = { (lag: Int) -> Float in lag % 2 == 0 ? 50 : -50 }
    _ = Self.hear(Self.click(0, sound: 2), by: heardTwice, as: loud, answer: loud)
    _ = Self.hear(Self.click(0, sound: 4), by: heardTwice, as: loud, answer: loud)
    let step = { (lag: Int) -> Float in lag >= 17 ? 1 : 0 }
    _ = Self.hear(Self.click(0), by: heardTwice, as: { step($0 + 16) }, answer: step)
    #expect(heardTwice.shift(of: 3, near: 64, within: 16, answer: step) == -16)
    let end = Self.frames - 40
    let late = { (lag: Int) -> Float in lag >= end && lag < end + 20 ? Float(lag % 7) : 0 }
    _ = Self.hear(Self.click(100_000), by: heardTwice, as: { late($0 - 16) }, answer: late)
    #expect(heardTwice.shift(of: 3, near: end, within: 16, answer: late) == 16)
  }

  /// What the match must explain is the answer's changes over the frames it is read over: a step
  /// in the answer just past them (a loud reflection 48 frames after the direct sound) leaves a
  /// click heard as the answer matched where it is.
  @Test func theMatchExplainsTheAnswersChangesOverItsOwnFrames() {
    let heardTwice = HeardTwice(frames: Self.frames)
    let answer = { (lag: Int) -> Float in lag >= 248 ? 100 : (lag >= 200 && lag < 230 ? Float(lag % 7) : 0) }
    _ = Self.hear(Self.click(0), by: heardTwice, as: answer, answer: answer)
    #expect(heardTwice.shift(of: 3, near: 200, within: 16, answer: answer) == 0)
  }

  /// Where even the best match explains less than half of what was heard there (a stroke over the
  /// direct sound), the click's direct sound is not found.
  @Test func aDirectSoundUnderAStrokeIsNotFound() {
    let heardTwice = HeardTwice(frames: Self.frames)
    let answer = { (lag: Int) -> Float in lag >= Self.directLag && lag < Self.directLag + 30 ? Float(lag % 7) : 0 }
    let stroke = { (lag: Int) -> Float in answer(lag) + (lag >= 20 && lag < 110 ? (lag % 2 == 0 ? 9 : -9) : 0) }
    _ = Self.hear(Self.click(0), by: heardTwice, as: stroke, answer: answer)
    #expect(heardTwice.shift(of: 3, near: Self.directLag, within: 16, answer: answer) == nil)
  }
}
