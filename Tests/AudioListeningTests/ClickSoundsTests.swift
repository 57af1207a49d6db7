import MetronomeTesting
import Testing

@testable import AudioListening

/// The clicks an output plays, told apart as it plays them: a click is a run of sound between
/// 16 zeros or more, a sound is its samples up to a level.
@Suite(.timeLimit(.minutes(2))) struct ClickSoundsTests {
  /// A click of 64 frames of seeded noise, none of them zero.
  private static func noise(seed: UInt64, count: Int = 64) -> [Float] {
    var random = SeededGenerator(seed: seed)
    return (0..<count).map { _ in Float.random(in: 0.1...1, using: &random) * (Bool.random(using: &random) ? 1 : -1) }
  }

  /// An output of `length` frames holding `clicks` at their frames.
  private static func output(_ clicks: [(frame: Int, samples: [Float])], length: Int) -> [Float] {
    var output = [Float](repeating: 0, count: length)
    for click in clicks {
      for (index, sample) in click.samples.enumerated() { output[click.frame + index] = sample }
    }
    return output
  }

  /// The clicks `sounds` kept, earliest first.
  private static func clicks(in sounds: ClickSounds) -> [ClickSounds.Click] {
    var clicks: [ClickSounds.Click] = []
    sounds.forEachClick(from: .min, through: .max) { clicks.append($0) }
    return clicks.reversed()
  }

  /// Plays `output` into `sounds` in blocks of `block` frames from `first`; the places replaced.
  @discardableResult
  private static func play(
    _ output: [Float], into sounds: ClickSounds, from first: Int64 = 0, blocks block: Int = 256
  ) -> [(place: Int, frame: Int64)] {
    var replaced: [(place: Int, frame: Int64)] = []
    output.withUnsafeBufferPointer { all in
      for start in stride(from: 0, to: all.count, by: block) {
        sounds.played(
          UnsafeBufferPointer(rebasing: all[start..<min(start + block, all.count)]), from: first + Int64(start)
        ) { replaced.append((place: $0, frame: $1)) }
      }
    }
    return replaced
  }

  /// The same samples at another level, even inverted, are the same sound, at the level's gain;
  /// each click's energy is the sum of its samples' squares.
  @Test func theSameSamplesAtAnotherLevelAreTheSameSound() {
    let click = Self.noise(seed: 1)
    let sounds = ClickSounds()
    let replaced = Self.play(
      Self.output(
        [(100, click), (1_000, click.map { $0 * 0.5 }), (2_000, click.map { -$0 * 2 })], length: 4_096),
      into: sounds)
    #expect(replaced.map(\.frame) == [100])
    let kept = Self.clicks(in: sounds)
    #expect(kept.map(\.frame) == [100, 1_000, 2_000])
    #expect(Set(kept.map(\.sound)).count == 1)
    #expect(kept.map(\.gain).map { ($0 * 1_000).rounded() / 1_000 } == [1, 0.5, -2])
    let energy = click.reduce(0) { $0 + $1 * $1 }
    #expect(abs(kept[1].energy / (energy / 4) - 1) < 1e-4 && abs(kept[2].energy / (energy * 4) - 1) < 1e-4)
    #expect(sounds.length(of: kept[0].sound) == 64)
    #expect(sounds.sample(of: kept[0].sound, at: 5) == click[5])
    #expect(sounds.sample(of: kept[0].sound, at: -1) == 0 && sounds.sample(of: kept[0].sound, at: 64) == 0)
  }

  /// Another shape, or the same one longer, is another sound; one so close that its samples
  /// agree with the first's to within 0.999 99 of their energy is the same.
  @Test(arguments: [(0.008_9, true), (0.017_8, false)] as [(Float, Bool)])
  func aSoundAlikeToWithinAHundredThousandthIsTheSame(change: Float, same: Bool) {
    // 63 frames at 0.5 and one at 0 in their midst: a change there of d is d² against 15.75.
    var click = [Float](repeating: 0.5, count: 64)
    click[10] = 0
    var changed = click
    changed[10] = change
    let sounds = ClickSounds()
    Self.play(Self.output([(100, click), (1_000, changed)], length: 2_048), into: sounds)
    let kept = Self.clicks(in: sounds)
    #expect((kept.map(\.sound) == [kept[0].sound, kept[0].sound]) == same, "a change of \(change)")
  }

  @Test func anotherShapeOrLengthIsAnotherSound() {
    let click = Self.noise(seed: 2)
    let sounds = ClickSounds()
    let replaced = Self.play(
      Self.output([(100, click), (1_000, Self.noise(seed: 3)), (2_000, click + [0.3])], length: 4_096),
      into: sounds)
    #expect(replaced.map(\.frame) == [100, 1_000, 2_000])
    #expect(Set(replaced.map(\.place)).count == 3)
  }

  /// Fifteen zeros inside a sound are part of it; sixteen end it.
  @Test(arguments: [(15, 1), (16, 2)] as [(Int, Int)])
  func sixteenZerosEndAClick(zeros: Int, clicks: Int) {
    let first = Self.noise(seed: 4, count: 32)
    let sounds = ClickSounds()
    Self.play(Self.output([(100, first), (132 + zeros, Self.noise(seed: 5, count: 32))], length: 1_024), into: sounds)
    let kept = Self.clicks(in: sounds)
    #expect(kept.map(\.frame) == [100, 132 + Int64(zeros)].prefix(clicks).map { $0 })
    #expect(kept.first.map { sounds.length(of: $0.sound) } == (clicks == 1 ? 64 + zeros : 32))
  }

  /// A sound longer than 8,192 frames is taken as several.
  @Test func aSoundLongerThanTheLongestIsSeveral() {
    let sounds = ClickSounds()
    Self.play([Float](repeating: 0.25, count: 20_000) + [Float](repeating: 0, count: 64), into: sounds)
    let kept = Self.clicks(in: sounds)
    #expect(kept.map(\.frame) == [0, 8_192, 16_384])
    #expect(kept.map { sounds.length(of: $0.sound) } == [8_192, 8_192, 3_616])
  }

  /// Sixteen sounds are told apart; a seventeenth takes the place of the one played least
  /// recently, and the blocks the output comes in change nothing.
  @Test(arguments: [1, 100, 4_096])
  func aSeventeenthSoundTakesTheLeastRecentlyPlayedsPlace(block: Int) {
    // The seventeenth shorter: the place it takes holds nothing of the longer sound's past it.
    let shapes = (0..<17).map { Self.noise(seed: 10 + UInt64($0), count: $0 == 16 ? 32 : 64) }
    // Sounds 0 to 15, then sound 0 again, then the seventeenth: sound 1 was played least recently.
    let order = Array(0..<16) + [0, 16]
    let sounds = ClickSounds()
    let replaced = Self.play(
      Self.output(order.enumerated().map { ($0.offset * 200, shapes[$0.element]) }, length: 4_000), into: sounds,
      blocks: block)
    let kept = Self.clicks(in: sounds)
    #expect(replaced.count == 17)
    #expect(kept[16].sound == kept[0].sound)
    #expect(kept[17].sound == kept[1].sound)
    #expect(replaced.last.map { $0.place == kept[1].sound && $0.frame == 17 * 200 } == true)
    #expect(sounds.length(of: kept[17].sound) == 32 && sounds.sample(of: kept[17].sound, at: 32) == 0)
  }

  /// The last 128 clicks are kept, found from a frame through a frame, the latest first.
  @Test func theLast128ClicksAreKept() {
    let click = Self.noise(seed: 6, count: 16)
    let sounds = ClickSounds()
    Self.play(Self.output((0..<200).map { ($0 * 100, click) }, length: 20_100), into: sounds)
    #expect(Self.clicks(in: sounds).map(\.frame) == (72..<200).map { Int64($0 * 100) })
    var latestFirst: [Int64] = []
    sounds.forEachClick(from: 10_000, through: 10_300) { latestFirst.append($0.frame) }
    #expect(latestFirst == [10_300, 10_200, 10_100, 10_000])
  }

  /// A gap in what is given (frames never played) ends the click being played; samples that are
  /// not numbers are silence.
  @Test func aGapInTheOutputEndsTheClick() {
    let sounds = ClickSounds()
    let click = Self.noise(seed: 7, count: 40)
    Self.play(Array(click[..<20]), into: sounds, from: 0)
    Self.play(Array(click[20...]) + [Float](repeating: 0, count: 32), into: sounds, from: 1_000)
    #expect(Self.clicks(in: sounds).map(\.frame) == [0, 1_000])
    let other = ClickSounds()
    Self.play([Float.nan] + click + [Float.infinity] + [Float](repeating: 0, count: 32), into: other)
    let kept = Self.clicks(in: other)
    #expect(kept.map(\.frame) == [1] && other.length(of: kept[0].sound) == 40)
  }

  /// Every click that may sound before a frame is known once the output was played that far and
  /// no click still being played started before it; with no output given, all are.
  @Test func whatIsKnownIsWhatWasPlayedAndEnded() {
    let sounds = ClickSounds()
    #expect(sounds.isKnown(through: 1_000_000))
    // A click from frame 100, still playing as the output given ends at 120.
    Self.play([Float](repeating: 0, count: 100) + Self.noise(seed: 8, count: 20), into: sounds)
    #expect(sounds.isKnown(through: 100))
    #expect(!sounds.isKnown(through: 101))
    Self.play([Float](repeating: 0, count: 100), into: sounds, from: 120)
    #expect(sounds.isKnown(through: 220))
    #expect(!sounds.isKnown(through: 221))
  }

  /// Zeros inside a click are part of it however many gaps it has, counted afresh after each
  /// sound and after the click before ended; they read as zeros, whatever a click before held.
  @Test func aClicksGapsAreCountedEachOnItsOwn() {
    let sounds = ClickSounds()
    var gapped = Self.noise(seed: 9, count: 60)
    for index in 10..<25 { gapped[index] = 0 }
    for index in 35..<50 { gapped[index] = 0 }
    Self.play(Self.output([(100, Self.noise(seed: 10, count: 80)), (1_000, gapped)], length: 2_048), into: sounds)
    let kept = Self.clicks(in: sounds)
    #expect(kept.map(\.frame) == [100, 1_000])
    #expect(kept.last.map { sounds.length(of: $0.sound) } == 60)
    #expect(kept.last.map { sound in (10..<25).allSatisfy { sounds.sample(of: sound.sound, at: $0) == 0 } } == true)
  }

  /// A quiet click (its energy far under one) heard again is the same sound.
  @Test func aQuietClickHeardAgainIsTheSameSound() {
    let quiet = Self.noise(seed: 11, count: 32).map { $0 * 0.05 }
    let sounds = ClickSounds()
    Self.play(Self.output([(100, quiet), (1_000, quiet)], length: 2_048), into: sounds)
    #expect(Set(Self.clicks(in: sounds).map(\.sound)).count == 1)
  }

  /// Every sample counts, the first too: a click alike but for its first is another sound.
  @Test func aClickUnlikeInItsFirstSampleIsAnotherSound() {
    let click = [Float](repeating: 0.5, count: 64)
    var changed = click
    changed[0] = 0.9
    let sounds = ClickSounds()
    Self.play(Self.output([(100, click), (1_000, changed)], length: 2_048), into: sounds)
    #expect(Set(Self.clicks(in: sounds).map(\.sound)).count == 2)
  }
}
