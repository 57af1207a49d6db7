import Testing

@testable import AudioListening

/// `HeardTwice` at its edges: two clicks exactly -40 or -60 dB apart, an answer exactly -20 or
/// -30 dB off them, to the last bit of a float; the direct sound's frames; the first frame of a
/// click's changes; and one sound's fit kept from another's.
@Suite(.timeLimit(.minutes(2))) struct HeardTwiceEdgeTests {
  /// A click of `sound` played at `frame`.
  private static func click(_ frame: Int64, sound: Int = 3) -> ClickSounds.Click {
    ClickSounds.Click(frame: frame, sound: sound, gain: 1, energy: 1)
  }

  /// Two values a little over 1, `heard` and `other`, whose difference squared is exactly
  /// `share` of `heard` squared, as a `Float` computes both: the edge of a rule "differs by at
  /// most (or more than) `share` of what was heard".
  private static func pair(differingBy share: Float) -> (heard: Float, other: Float) {
    var heard: Float = 1
    while true {
      let target = share * (heard * heard)
      var other = heard - target.squareRoot()
      for _ in 0..<8 { other = other.nextDown }
      for _ in 0..<16 {
        let difference = heard - other
        if difference * difference == target { return (heard, other) }
        other = other.nextUp
      }
      heard = heard.nextUp
    }
  }

  /// What a click of one frame heard as `second` says, after one heard as `first`, against an
  /// answer of `answer`.
  private static func verdict(first: Float, second: Float, answer: Float) -> HeardTwice.Verdict {
    let heardTwice = HeardTwice(frames: 1)
    let hear = { (frame: Int64, value: Float) in
      heardTwice.hear(
        click(frame), lags: 0..<1, from: 0, directLag: nil, clean: true, heard: { _ in value },
        answer: { _ in answer }, others: { _ in 0 })
    }
    _ = hear(0, first)
    return hear(10, second)
  }

  /// Two clicks exactly at the edge of alike are alike; a float farther, not.
  ///
  /// Exactly -40 dB apart they teach the answer; a click exactly -60 dB from the one before is
  /// heard as it, and the echo changed there.
  @Test(arguments: [(Float(1e-4), \HeardTwice.Verdict.learned), (1e-6, \.changedHere)])
  func twoClicksExactlyAtTheEdgeOfAlikeAreAlike(share: Float, told: KeyPath<HeardTwice.Verdict, Bool> & Sendable) {
    let (heard, other) = Self.pair(differingBy: share)
    #expect(Self.verdict(first: other, second: heard, answer: 0)[keyPath: told])
    #expect(!Self.verdict(first: other.nextDown, second: heard, answer: 0)[keyPath: told])
  }

  /// An answer exactly at the edge of unlike still explains two clicks heard alike; a float
  /// farther, not.
  ///
  /// They teach only an answer off them by more than -30 dB, and are the echo changed only where
  /// it is off by more than -20 dB.
  @Test(arguments: [(Float(1e-3), \HeardTwice.Verdict.learned), (1e-2, \.changedHere)])
  func anAnswerExactlyAtTheEdgeOfUnlikeStillExplainsTheClicks(
    share: Float, told: KeyPath<HeardTwice.Verdict, Bool> & Sendable
  ) {
    let (heard, answer) = Self.pair(differingBy: share)
    #expect(!Self.verdict(first: heard, second: heard, answer: answer)[keyPath: told])
    #expect(Self.verdict(first: heard, second: heard, answer: answer.nextDown)[keyPath: told])
  }

  /// The frames of the answers whose level is read: past the 4,096 it is read over.
  private static let frames = 4_352

  /// Hears the clicks `heard` holds at once, 128 lags of each a segment, as each one's `heard`
  /// against its `answer`, whose direct sound is at `directLag`: each one's level, once read.
  private static func levels(
    by heardTwice: HeardTwice,
    of clicks: [(click: ClickSounds.Click, heard: (Int) -> Float, answer: (Int) -> Float)], directLag: Int
  ) -> [Float?] {
    var levels = [Float?](repeating: nil, count: clicks.count)
    let start = clicks.map(\.click.frame).min() ?? 0
    for reference in stride(from: start, to: start + Int64(frames) + 1_024, by: 128) {
      for (index, heard) in clicks.enumerated() {
        let first = Int(reference - heard.click.frame)
        let lower = max(-first, 0)
        let upper = min(frames - first, 128)
        guard lower < upper else { continue }
        let lags = lower..<upper
        let verdict = heardTwice.hear(
          heard.click, lags: lags, from: first, directLag: directLag, clean: true,
          heard: { heard.heard(first + $0) }, answer: { heard.answer(first + $0) }, others: { _ in 0 })
        if let level = verdict.level { levels[index] = level }
      }
    }
    return levels
  }

  /// The direct sound's level is read from 64 frames before its lag to 192 after, and no
  /// further: a loud reflection right after that, heard louder than the answer has it (a
  /// microphone moved nearer a wall), leaves the level read, by the direct sound and the chunks
  /// that agree with it.
  @Test func theDirectSoundIsReadToOneHundredAndNinetyTwoFramesAfterIt() {
    let reflection = 256..<448
    let answer = { (lag: Int) -> Float in (lag % 44 < 22 ? 0.3 : -0.3) * (reflection.contains(lag) ? 2 : 1) }
    let heard = { (lag: Int) -> Float in (reflection.contains(lag) ? 3 : 2) * answer(lag) }
    let levels = Self.levels(by: HeardTwice(frames: Self.frames), of: [(Self.click(0), heard, answer)], directLag: 64)
    #expect(levels.count == 1 && levels.allSatisfy { abs(($0 ?? 0) - 2) < 1e-5 }, "\(levels)")
  }

  /// A click's changes are fitted from the one into its second frame on: an answer that is a
  /// single frame is read from that change alone, whatever the click heard before it, of another
  /// sound, ended on.
  @Test func aClicksFirstChangeIsIntoItsSecondFrame() {
    let heardTwice = HeardTwice(frames: Self.frames)
    let loudEnd = { (lag: Int) -> Float in lag == Self.frames - 1 ? 50 : 0 }
    _ = Self.levels(by: heardTwice, of: [(Self.click(0, sound: 2), loudEnd, loudEnd)], directLag: 0)
    let single = { (lag: Int) -> Float in lag == 0 ? 1 : 0 }
    let levels = Self.levels(by: heardTwice, of: [(Self.click(10_000), { 2 * single($0) }, single)], directLag: 0)
    #expect(levels == [2])
  }

  /// Each sound's changes are fitted over its own first 4,096 frames: a click of the next sound
  /// heard at once, whose answer changes on its 4,096th frame, leans nothing.
  @Test func aSoundsFitEndsOnItsOwnFrames() {
    let step = { (lag: Int) -> Float in lag >= 4_096 ? 1 : 0 }
    let single = { (lag: Int) -> Float in lag == 0 ? 1 : 0 }
    let levels = Self.levels(
      by: HeardTwice(frames: Self.frames),
      of: [(Self.click(0), { 5 * step($0) }, step), (Self.click(128, sound: 4), { 2 * single($0) }, single)],
      directLag: 0)
    #expect(levels == [nil, 2])
  }
}
