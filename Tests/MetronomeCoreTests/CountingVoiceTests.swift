import Glibc
import MetronomeCore
import Testing

/// The spoken count: which word each click says, how long it may last, and how a recording is
/// trimmed to its attack.
@Suite(.timeLimit(.minutes(1)))
struct CountingVoiceTests {
  private typealias Word = CountingVoice.Word

  /// A recording of `word`: 100 ms of near-silence, then a second of a tone whose pitch says which
  /// word it is.
  private static func recording(of word: Word) -> [Float] {
    let step = (Float(Word.all.firstIndex(of: word) ?? 0) + 2) * 2 * Float.pi / 480
    let tone: [Float] = (0..<48_000).map { index in 0.5 * sinf(Float(index) * step) }
    return [Float](repeating: 0.001, count: 4_800) + tone
  }

  private static let everyWord = Dictionary(uniqueKeysWithValues: Word.all.map { ($0, recording(of: $0)) })

  private let voice = CountingVoice(recordings: everyWord, sampleRate: .standard)

  private func beat(
    _ beatInBar: Int, numerator: Int = 4, bpm: Double = 120, click: Int = 0, clicks: Int = 1,
    level: AccentLevel = .normal, countIn: Bool = false
  ) throws -> Beat {
    Beat(
      count: 0, bar: 1, beatInBar: beatInBar, meter: try Meter(numerator, 4, cap: .widest), tempo: try Tempo(bpm: bpm),
      frame: 0, sampleRate: .standard, level: level, subdivision: click, clicks: clicks, isCountIn: countIn)
  }

  /// The samples `count` plays for `beat`, nil for a click.
  private func said(_ beat: Beat, by count: CountingVoice? = nil) -> [Float]? {
    let count = count ?? voice
    return count.said(for: beat).map { said in
      Array(count.sounds[said.sound][..<said.length]) + (said.end.map { count.sounds[$0] } ?? [])
    }
  }

  @Test func eachBeatSaysItsNumberToSixteen() throws {
    for number in 1...16 {
      #expect(voice.said(for: try beat(number, numerator: 16))?.word == .number(number))
    }
    #expect(voice.said(for: try beat(17, numerator: 17)) == nil, "no word for 17: it clicks")
    #expect(voice.said(for: try beat(3, countIn: true))?.word == .number(3), "the count-in is counted")
  }

  /// "one and", "one trip let", "one e and a"; a beat divided otherwise says its number and its
  /// other clicks click.
  @Test func subdivisionsSayTheSyllablesMusiciansSay() throws {
    let words = { (clicks: Int) throws -> [Word?] in
      try (1..<clicks).map { try self.voice.said(for: self.beat(1, click: $0, clicks: clicks))?.word }
    }
    #expect(try words(2) == [.syllable(.and)])
    #expect(try words(3) == [.syllable(.trip), .syllable(.let)])
    #expect(try words(4) == [.syllable(.e), .syllable(.and), .syllable(.a)])
    #expect(try words(5) == [nil, nil, nil, nil])
    #expect(voice.said(for: try beat(2, clicks: 5))?.word == .number(2))
  }

  @Test func aSilentBeatAndTheSecondVoiceSayNothing() throws {
    #expect(voice.said(for: try beat(2, level: .silent)) == nil)
    let poly = try beat(1).click(at: 100, level: .normal, voice: .polyrhythm(click: 0, of: 3))
    #expect(voice.said(for: poly) == nil)
  }

  /// A word lasts until the next: at 120 a beat has 0.5 s, an eighth's syllable 0.25 s, shortened
  /// to the longest length that fits; the full word where it fits.
  @Test func aWordIsShortenedToTheTimeBeforeTheNext() throws {
    #expect(said(try beat(1, bpm: 120))?.count == 24_000)
    #expect(said(try beat(1, bpm: 120, clicks: 2))?.count == 12_000)
    #expect(said(try beat(1, bpm: 100, clicks: 2))?.count == 12_000, "0.3 s: the 0.25 s length")
    let whole = try #require(said(try beat(1, bpm: 30)))
    #expect((47_990..<48_000).contains(whole.count), "2 s: the whole word from its attack")
    #expect(whole.reduce(Float(0)) { max($0, abs($1)) } == 1, "at full scale")
    let short = try #require(said(try beat(1, bpm: 120, clicks: 2)))
    #expect(short.suffix(10).allSatisfy { abs($0) < 0.05 }, "it fades out")
  }

  /// Below a tenth of a second between words, syllables give way to clicks, and above that for
  /// beats only bar one is said, lasting the bar.
  @Test func pastTheShortestSpacingOnlyBarOneIsSaid() throws {
    #expect(voice.said(for: try beat(1, bpm: 150, click: 1, clicks: 4)) != nil, "0.1 s: still said")
    #expect(voice.said(for: try beat(1, bpm: 151, click: 1, clicks: 4)) == nil)
    #expect(said(try beat(1, bpm: 151, clicks: 4))?.count == 15_360, "the beat's word lasts the beat, 0.397 s: 0.32 s")
    #expect(voice.said(for: try beat(2, bpm: 600)) != nil)
    #expect(voice.said(for: try beat(2, bpm: 601)) == nil)
    #expect(said(try beat(1, bpm: 601))?.count == 15_360, "bar one lasts the bar, 0.4 s: the 0.32 s length")
    #expect(voice.said(for: try beat(1, bpm: 601))?.word == .number(1))
  }

  /// A recording starts at its attack, the first sample at a tenth of the loudest millisecond's loudness.
  ///
  /// The millisecond from it must reach that tenth too, so a lone sample of breath before it does
  /// not count. Brought to full scale, then to the volume (half of it under clicks); a silent one
  /// is left out.
  @Test func aRecordingIsTrimmedToItsAttackAndBroughtToFullScale() throws {
    let breath = [Float](repeating: 0, count: 1_000) + [0.1] + [Float](repeating: 0, count: 500)
    let word = [Float](repeating: 0.02, count: 3) + [Float](repeating: 0.4, count: 2_000)
    for (withClick, level) in [(false, Float(0.5)), (true, 0.25)] {
      // Under clicks the word is silent for 2 ms (96 frames), then rises until 30 ms (1 440 frames).
      let count = CountingVoice(
        recordings: [.number(1): breath + word, .number(2): [0, 0, 0]], sampleRate: .standard, volume: 0.5,
        withClick: withClick)
      #expect(count.words == [.number(1)])
      let said = try #require(self.said(try beat(1), by: count))
      #expect(said.count == 2_000, "from the first sample at a tenth of 0.4")
      let from = withClick ? 1_440 : 0
      #expect(said[from...].allSatisfy { $0 == level })
      #expect(!withClick || (said[0..<97].allSatisfy { $0 == 0 } && said[768] == level / 4))
    }
    #expect(CountingVoice.attack(in: (breath + word)[...], sampleRate: 48_000) == 1_504)
    #expect(CountingVoice.attack(in: (breath + word)[1_200...], sampleRate: 48_000) == 1_504)
    #expect(CountingVoice.attack(in: [0.1, 0.2][...], sampleRate: 48_000) == nil, "shorter than a millisecond")
    #expect(CountingVoice.attack(in: [Float](repeating: 0, count: 100)[...], sampleRate: 48_000) == nil)
  }

  /// Under a click, the loudest word there can be (full scale throughout) and each of the
  /// built-in clicks at full volume never pass full scale together.
  @Test func aWordUnderAClickNeverClips() throws {
    let loudest = CountingVoice(
      recordings: [.number(1): [Float](repeating: 1, count: 48_000)], sampleRate: .standard, withClick: true)
    let word = try #require(said(try beat(1, bpm: 30), by: loudest))
    for sound in ClickSound.allCases {
      for click in SoundKit(sound, sampleRate: .standard, volume: 1).sounds {
        let sum = zip(click, word).map { abs($0) + abs($1) }.max() ?? 0
        #expect(sum <= 1, "\(sound): \(sum)")
      }
    }
  }

  /// A word exactly as long as the time to the next is said whole; a frame longer, shortened to
  /// 0.5 s with a fading end.
  @Test func aWordThatJustFitsIsSaidWhole() throws {
    for (length, said) in [(24_000, 24_000), (24_001, 24_000)] {
      let count = CountingVoice(recordings: [.number(1): [Float](repeating: 1, count: length)], sampleRate: .standard)
      let played = try #require(count.said(for: try beat(1, bpm: 120)))
      #expect(played.length + (played.end.map { count.sounds[$0].count } ?? 0) == said, "\(length)")
      #expect((played.end == nil) == (length == 24_000))
    }
  }

  /// The volume is at most 1: a word is never louder than full scale.
  @Test func theVolumeNeverTakesAWordPastFullScale() throws {
    let count = CountingVoice(
      recordings: [.number(1): [Float](repeating: 0.5, count: 100)], sampleRate: .standard, volume: 2)
    #expect(said(try beat(1), by: count)?.allSatisfy { $0 == 1 } == true)
  }

  /// A word ends at its last sample at a hundredth of its peak: its breath after that is cut.
  @Test func aWordEndsAtItsLastSampleAtAHundredthOfItsPeak() throws {
    let recording =
      [Float](repeating: 0.5, count: 1_000) + [Float](repeating: 0.005, count: 100)
      + [Float](repeating: 0.004, count: 100)
    let count = CountingVoice(recordings: [.number(1): recording], sampleRate: .standard)
    #expect(said(try beat(1, bpm: 30), by: count)?.count == 1_100)
  }

  /// The attack's edges: a sound one millisecond long, one that starts at once, a quiet one, a
  /// sample exactly at the tenth (it counts) and one just under it (it does not), a breath whose
  /// millisecond holds less than a hundredth of the loudest one's energy, a burst too short to
  /// fill a millisecond to it, and a smack loud for two milliseconds only.
  @Test func theAttacksEdges() {
    let loud = [Float](repeating: 1, count: 100)
    #expect(CountingVoice.attack(in: [Float](repeating: 0.5, count: 48)[...], sampleRate: 48_000) == 0)
    #expect(CountingVoice.attack(in: [Float](repeating: 0.5, count: 47)[...], sampleRate: 48_000) == nil)
    #expect(CountingVoice.attack(in: ([Float](repeating: 0.05, count: 100))[...], sampleRate: 48_000) == 0)
    #expect(CountingVoice.attack(in: ([0.1] + loud)[...], sampleRate: 48_000) == 0)
    #expect(CountingVoice.attack(in: ([0.095] + loud)[...], sampleRate: 48_000) == 1)
    let breath = [Float(0.1)] + [Float](repeating: 0.08, count: 47) + [Float](repeating: 0, count: 100)
    #expect(CountingVoice.attack(in: (breath + loud)[...], sampleRate: 48_000) == 148)
    let burst = [Float](repeating: 0.105, count: 40) + [Float](repeating: 0, count: 100)
    #expect(CountingVoice.attack(in: (burst + loud)[...], sampleRate: 48_000) == 140)
    // A smack of 2 ms at half the word's level, 40 ms before a word of 100 ms: not the attack.
    let smack = [Float](repeating: 0.5, count: 96) + [Float](repeating: 0, count: 1_920)
    let word = [Float](repeating: 1, count: 4_800)
    #expect(CountingVoice.attack(in: (smack + word)[...], sampleRate: 48_000) == 2_016)
  }

  /// A shortened word ends with the samples before its length fading to silence over 15 ms (720
  /// frames): here a rising word shortened to 0.5 s.
  @Test func aShortenedWordFadesOutToSilence() throws {
    let recording = (0..<30_000).map { Float($0) / 30_000 }
    let count = CountingVoice(recordings: [.number(1): recording], sampleRate: .standard)
    let attack = try #require(CountingVoice.attack(in: recording[...], sampleRate: 48_000))
    let peak = try #require(recording.last)
    let played = try #require(count.said(for: try beat(1, bpm: 120)))
    let end = try #require(played.end.map { count.sounds[$0] })
    #expect(played.length == 24_000 - 720 && end.count == 720)
    #expect(Array(count.sounds[played.sound][0..<10]) == recording[attack..<(attack + 10)].map { $0 / peak })
    for k in [0, 1, 360, 718, 719] {
      let expected = recording[attack + 23_280 + k] / peak * Float(719 - k) / 720
      #expect(abs(end[k] - expected) < 1e-6, "\(k)")
    }
  }

  /// The words a count needs: the numbers to the largest numerator and the divisions' syllables.
  @Test func theWordsTheMusicNeeds() throws {
    #expect(CountingVoice.words(for: [.fourFour], subdivisions: [.none]) == (1...4).map(Word.number))
    #expect(
      CountingVoice.words(for: [try Meter(7, 8), .fourFour], subdivisions: [try Subdivision(3), try Subdivision(2)])
        == (1...7).map(Word.number) + [.syllable(.and), .syllable(.trip), .syllable(.let)])
    #expect(CountingVoice.words(for: [try Meter(24, 32)], subdivisions: [try Subdivision(5)]).count == 16)
    #expect(CountingVoice.words(for: [try Meter(1, 4)], subdivisions: []) == [.number(1)])
    #expect(CountingVoice.words(for: [], subdivisions: []) == [.number(1)])
  }

  /// An attack's edges: ten milliseconds at a tenth of the loudest millisecond's level (its
  /// energy a hundredth) are a word's start, exactly so; nine loud milliseconds and then silence
  /// are not, nor a murmur under the tenth however it starts.
  @Test func anAttackIsTenMillisecondsAtATenthOfTheLoudest() {
    let tenth = [Float](repeating: 1, count: 480) + [Float](repeating: 10, count: 480)
    #expect(CountingVoice.attack(in: tenth[...], sampleRate: 48_000) == 0)
    let silence = [Float](repeating: 0, count: 4_800)
    let brief = [Float](repeating: 1, count: 480) + silence + [Float](repeating: 1, count: 4_800)
    #expect(CountingVoice.attack(in: brief[...], sampleRate: 48_000) == 0)
    let tooBrief = [Float](repeating: 1, count: 432) + silence + [Float](repeating: 1, count: 4_800)
    #expect(CountingVoice.attack(in: tooBrief[...], sampleRate: 48_000) == 5_232)
    let murmur = [Float(0.12)] + [Float](repeating: 0.08, count: 479) + [Float](repeating: 1, count: 960)
    #expect(CountingVoice.attack(in: murmur[...], sampleRate: 48_000) == 480)
  }
}
