import MetronomeCore
import Testing

/// Which sound each click plays, built in or the player's own, and how the player's own fill the
/// levels not given.
@Suite(.timeLimit(.minutes(1)))
struct SoundKitTests {
  private let rate = SampleRate.standard

  /// A strong beat's own sample alone sounds every level: the normal beat at the regular level,
  /// the weak at the weak level; each scaled by the volume, and kept within full scale.
  @Test func aStrongSampleAloneSoundsEveryLevel() {
    let kit = SoundKit(.pulse, sampleRate: rate, volume: 0.5, samples: [.strong: [1, -0.5, 4, -4]])
    #expect(kit.sounds[SoundKit.Voice.strong.rawValue] == [0.5, -0.25, 1, -1])
    #expect(kit.sounds[SoundKit.Voice.normal.rawValue] == [0.5, -0.25, 1, -1].map { $0 * ClickSound.regularLevel })
    #expect(kit.sounds[SoundKit.Voice.weak.rawValue] == [0.5, -0.25, 1, -1].map { $0 * ClickSound.weakLevel })
    // The voices not given are the built-in sound's, at the volume.
    #expect(
      kit.sounds[SoundKit.Voice.countIn.rawValue] == ClickSound.pulse.countInSamples(sampleRate: rate, volume: 0.5))
  }

  /// A normal sample given stays the normal beat's and makes the weak one, at half of it; a weak
  /// one given stays the weak beat's; a volume beyond 0 to 1 is kept within it.
  @Test func samplesGivenForALevelAreThatLevels() {
    let both = SoundKit(.beep, sampleRate: rate, volume: 1, samples: [.strong: [1], .normal: [0.8]])
    #expect(both.sounds[SoundKit.Voice.normal.rawValue] == [0.8])
    #expect(both.sounds[SoundKit.Voice.weak.rawValue] == [0.8 * ClickSound.weakLevel / ClickSound.regularLevel])
    let weak = SoundKit(.beep, sampleRate: rate, volume: 1, samples: [.strong: [1], .weak: [0.1]])
    #expect(weak.sounds[SoundKit.Voice.weak.rawValue] == [0.1])
    #expect(SoundKit(.beep, sampleRate: rate, volume: 3, samples: [.strong: [0.5]]).sounds[0] == [0.5])
    #expect(SoundKit(.beep, sampleRate: rate, volume: -1, samples: [.strong: [0.5]]).sounds[0] == [0])
    let builtIn = SoundKit(.woodblock, sampleRate: rate, volume: 1)
    #expect(
      builtIn.sounds[SoundKit.Voice.normal.rawValue]
        == ClickSound.woodblock.samples(level: .normal, sampleRate: rate, volume: 1))
  }

  /// Each click plays its voice: the count-in its own whatever its level (unless it is to sound
  /// as the bar, by its level), then the second voice,
  /// then a subdivision, then a beat by its level; a silent click plays nothing.
  @Test func eachClickPlaysItsVoice() {
    let beat = { (level: AccentLevel, countIn: Bool) in
      Beat(
        count: 0, bar: 1, beatInBar: 1, meter: .fourFour, tempo: .standard, frame: 0, sampleRate: .standard,
        level: level, isCountIn: countIn)
    }
    #expect(SoundKit.voice(of: beat(.strong, false)) == .strong)
    #expect(SoundKit.voice(of: beat(.normal, false)) == .normal)
    #expect(SoundKit.voice(of: beat(.weak, false)) == .weak)
    #expect(SoundKit.voice(of: beat(.silent, false)) == nil)
    #expect(SoundKit.voice(of: beat(.strong, true)) == .countIn)
    #expect(SoundKit.voice(of: beat(.silent, true)) == nil)
    // A count-in not apart (a microphone learning from it) plays each beat's level.
    #expect(SoundKit.voice(of: beat(.strong, true), countInApart: false) == .strong)
    #expect(SoundKit.voice(of: beat(.normal, true), countInApart: false) == .normal)
    #expect(SoundKit.voice(of: beat(.weak, true), countInApart: false) == .weak)
    #expect(SoundKit.voice(of: beat(.silent, true), countInApart: false) == nil)
    #expect(SoundKit.voice(of: beat(.strong, false), countInApart: false) == .strong)
    let strong = beat(.strong, false)
    #expect(SoundKit.voice(of: strong.click(at: 100, level: .normal, subdivision: 1, volume: 1)) == .subdivision)
    #expect(
      SoundKit.voice(of: strong.click(at: 100, level: .normal, voice: .polyrhythm(click: 1, of: 3), volume: 1))
        == .polyrhythm)
    #expect(SoundKit.voice(of: strong.click(at: 100, level: .silent, subdivision: 1, volume: 1)) == nil)
  }
}
