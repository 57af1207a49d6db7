import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import MetronomeRun
import OSCControl
import Testing

/// klick's sounds and pitches, made for a renderer as `/klick/config/set_sound` and
/// `set_sound_pitch` ask; the sound in force is the one last played.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct ClickSoundChangeTests {
  private let clock = AudioClockScheduler()
  private let renderer: ClickRenderer
  private let change: ClickSoundChange

  init() {
    renderer = ClickRenderer(
      clock: clock, sampleRate: .standard, kit: SoundKit(.pulse, sampleRate: .standard, volume: 1))
    change = ClickSoundChange(settings: PlaybackSettings(volume: 0.5), renderer: renderer)
  }

  /// The first `frames` of beat one of a bar played from frame 0.
  private func beatOne(frames: Int) -> [Float] {
    let beat = Beat(count: 0, bar: 1, beatInBar: 1, meter: .fourFour, tempo: .standard, frame: 0, sampleRate: .standard)
    clock.schedule(after: 0) { renderer.enqueue(beat) }
    return renderer.render(frames: frames).samples
  }

  /// klick's sound 1 is the beep, at the run's volume; an octave up it lasts half as long; it is
  /// the sound in force from then on, where the run's own was before.
  @Test func aBuiltInSoundPlaysAtItsPitch() throws {
    let beep = SoundKit(.beep, sampleRate: .standard, volume: 0.5).sounds[0]
    let woodblock = ClickSoundChange(settings: PlaybackSettings(sound: .woodblock), renderer: renderer)
    #expect(woodblock.inForce.sound == .builtIn(3))
    #expect(change.inForce.sound == .builtIn(0))
    #expect(change.inForce.pitch == KlickState.SoundPair(emphasis: 1, normal: 1))
    try change.play(.builtIn(1), pitch: KlickState.SoundPair(emphasis: 2, normal: 1))
    #expect(change.inForce.sound == .builtIn(1))
    #expect(change.inForce.pitch == KlickState.SoundPair(emphasis: 2, normal: 1))
    let heard = beatOne(frames: beep.count)
    let length = heard.lastIndex { $0 != 0 }.map { $0 + 1 } ?? 0
    #expect(abs(length - beep.count / 2) <= 8, "\(length) frames for \(beep.count)")
    let peak: Float = heard.map(abs).max() ?? 0
    let beepPeak: Float = beep.map(abs).max() ?? 0
    #expect(abs(peak - beepPeak) < 0.05)
  }

  /// A pitch is taken at both ends of its three octaves either way, for either click: at 8 the
  /// beep lasts an eighth as long, at 0.125 eight times as long; the next float past either end is
  /// refused.
  @Test(arguments: [Float(8), 0.125])
  func aPitchAtEitherEndPlays(factor: Float) throws {
    let beep = SoundKit(.beep, sampleRate: .standard, volume: 0.5).sounds[0]
    try change.play(.builtIn(1), pitch: KlickState.SoundPair(emphasis: factor, normal: factor))
    #expect(change.inForce.pitch == KlickState.SoundPair(emphasis: factor, normal: factor))
    let heard = beatOne(frames: beep.count * 9)
    let length = Double(heard.lastIndex { $0 != 0 }.map { $0 + 1 } ?? 0)
    let expected = Double(beep.count) / Double(factor)
    #expect(abs(length - expected) <= expected / 100, "\(length) frames for \(expected)")
    let past = factor > 1 ? factor.nextUp : factor.nextDown
    for pitch in [KlickState.SoundPair(emphasis: past, normal: 1), KlickState.SoundPair(emphasis: 1, normal: past)] {
      #expect(throws: RunError.self) { try change.play(.builtIn(1), pitch: pitch) }
    }
  }

  /// A number klick has no sound for, a pitch out of range and a file that is not there are
  /// refused, each with what to give, and the sound playing stays.
  @Test func whatCannotPlayIsRefusedAndTheSoundStays() {
    #expect(throws: RunError.usage("sound 9: klick's built-in sounds are 0 to 3")) {
      try change.play(.builtIn(9), pitch: KlickState.SoundPair(emphasis: 1, normal: 1))
    }
    #expect(throws: RunError.usage("pitch 10.0: a click is pitched by a factor from 0.125 to 8")) {
      try change.play(.builtIn(1), pitch: KlickState.SoundPair(emphasis: 10, normal: 1))
    }
    #expect(throws: RunError.self) {
      try change.play(
        .files(emphasis: "/nonexistent/a.wav", normal: "/nonexistent/b.wav"), pitch: .init(emphasis: 1, normal: 1))
    }
    let pulse = SoundKit(.pulse, sampleRate: .standard, volume: 1).sounds[0]
    #expect(beatOne(frames: 64) == Array(pulse.prefix(64)))
    #expect(change.inForce.sound == .builtIn(0))
    #expect(change.inForce.pitch == KlickState.SoundPair(emphasis: 1, normal: 1))
  }
}
