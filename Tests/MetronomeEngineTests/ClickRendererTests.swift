import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import Testing

/// The renderer's sounds changed while it plays, as klick's OSC sound messages change them.
@Suite(.timeLimit(.minutes(1)))
struct ClickRendererTests {
  private let clock = AudioClockScheduler()
  private let renderer: ClickRenderer
  private let pulse = SoundKit(.pulse, sampleRate: .standard, volume: 1)
  private let beep = SoundKit(.beep, sampleRate: .standard, volume: 1)

  init() { renderer = ClickRenderer(clock: clock, sampleRate: .standard, kit: pulse) }

  /// Beat one of a bar, on `frame`, queued as the clock reaches it.
  private func click(at frame: Int64) {
    let beat = Beat(
      count: 0, bar: 1, beatInBar: 1, meter: .fourFour, tempo: .standard, frame: frame, sampleRate: .standard)
    clock.schedule(after: AudioTime(frame: frame, sampleRate: .standard)) { renderer.enqueue(beat) }
  }

  /// Another kit plays from the next period on; the click sounding when it comes is cut.
  @Test func anotherKitPlaysFromTheNextPeriodCuttingTheClickSounding() {
    click(at: 100)
    let first = renderer.render(frames: 256)
    renderer.play(beep)
    let second = renderer.render(frames: 256)
    click(at: 600)
    let third = renderer.render(frames: 256)

    #expect(Array(first.samples[100..<256]) == Array(pulse.sounds[0].prefix(156)))
    #expect(second.samples.allSatisfy { $0 == 0 })
    #expect(Array(third.samples[88..<256]) == Array(beep.sounds[0].prefix(168)))
    #expect(third.samples[0..<88].allSatisfy { $0 == 0 })
  }

  /// Frames a glitch lost cut the click sounding: it does not go on after them.
  @Test func aSkipCutsTheClickSounding() {
    click(at: 100)
    let first = renderer.render(frames: 256)
    renderer.skip(frames: 64)
    let after = renderer.render(frames: 256)
    #expect(first.samples[100] != 0 && pulse.sounds[0].count > 156 + 64 + 256)
    #expect(after.samples.allSatisfy { $0 == 0 })
  }

  /// The second voice mixes into the beats: where their clicks overlap, both sound.
  @Test func theSecondVoiceMixesIntoTheBeats() {
    // Weak clicks: together they stay within full scale.
    let beat = Beat(
      count: 0, bar: 1, beatInBar: 2, meter: .fourFour, tempo: .standard, frame: 100, sampleRate: .standard,
      level: .weak)
    let voice = beat.click(at: 150, level: .weak, voice: .polyrhythm(click: 0, of: 3))
    for click in [beat, voice] {
      clock.schedule(after: AudioTime(frame: click.frame, sampleRate: .standard)) { renderer.enqueue(click) }
    }
    let samples = renderer.render(frames: 256).samples
    let (weak, second) = (pulse.sounds[SoundKit.Voice.weak.rawValue], pulse.sounds[SoundKit.Voice.polyrhythm.rawValue])
    for k in [0, 10, 100] { #expect(abs(samples[150 + k] - (weak[50 + k] + second[k])) < 1e-6, "\(samples[150 + k])") }
  }

  /// Kits handed over faster than periods are rendered: the last one plays.
  @Test func theLastKitHandedOverPlays() {
    renderer.play(beep)
    renderer.play(pulse.transformed { _, sound in sound.map { $0 / 2 } })
    click(at: 0)
    let period = renderer.render(frames: 64)
    #expect(Array(period.samples) == pulse.sounds[0].prefix(64).map { $0 / 2 })
  }
}

/// A spoken count's words rendered: each on its beat's frame, in place of the click or over it,
/// as loud as the click's level, each cut by the next.
@Suite(.timeLimit(.minutes(1)))
struct SpokenCountRenderingTests {
  private let clock = AudioClockScheduler()
  private let pulse = SoundKit(.pulse, sampleRate: .standard, volume: 1)
  /// Words told apart by their shapes, each brought to full scale: "one" steady above zero, "two"
  /// steady below, "and" alternating.
  private let recordings: [CountingVoice.Word: [Float]] = [
    .number(1): [Float](repeating: 0.5, count: 48_000), .number(2): [Float](repeating: -0.25, count: 48_000),
    .syllable(.and): (0..<48_000).map { $0.isMultiple(of: 2) ? 0.125 : -0.125 },
  ]

  /// Renders `beats` (beat, frame) over `frames`, the count keeping the clicks or not.
  private func render(_ beats: [Beat], frames: Int, withClick: Bool) -> [Float] {
    let counting = CountingVoice(recordings: recordings, sampleRate: .standard, withClick: withClick)
    let renderer = ClickRenderer(clock: clock, sampleRate: .standard, kit: pulse, counting: counting)
    for beat in beats {
      clock.schedule(after: AudioTime(frame: beat.frame, sampleRate: .standard)) { renderer.enqueue(beat) }
    }
    return stride(from: 0, to: frames, by: 256).flatMap { _ in renderer.render(frames: 256).samples }
  }

  private func beat(_ number: Int, at frame: Int64, click: Int = 0, clicks: Int = 1) -> Beat {
    Beat(
      count: number - 1, bar: 1, beatInBar: number, meter: .fourFour, tempo: .standard, frame: frame,
      sampleRate: .standard, subdivision: click, clicks: clicks)
  }

  @Test func eachWordStartsOnItsFrameInPlaceOfTheClick() {
    let samples = render([beat(1, at: 1_000), beat(2, at: 25_000)], frames: 30_000, withClick: false)
    #expect(samples[0..<1_000].allSatisfy { $0 == 0 })
    // The accent's word at full scale from its first frame, until its fade before two.
    #expect(samples[1_000..<(1_000 + 24_000 - 720)].allSatisfy { $0 == 1 })
    #expect(samples[24_999] == 0)
    // Beat two: its word at the regular level.
    #expect(samples[25_000..<30_000].allSatisfy { abs($0 + ClickSound.regularLevel) < 1e-6 })
  }

  @Test func withTheClickTheWordsMixOverIt() {
    let samples = render([beat(1, at: 1_000)], frames: 4_096, withClick: true)
    let click = pulse.sounds[SoundKit.Voice.strong.rawValue]
    #expect(samples[1_000..<1_096] == click[0..<96], "the click alone while it peaks")
    let rise = Float(1_000 - 96) / Float(1_440 - 96)
    #expect(abs(samples[2_000] - (click[1_000] + 0.5 * rise * rise)) < 1e-6, "the word rising under the click")
    #expect(samples[3_000] == 0.5, "the word at half its level once the click has gone")
  }

  /// A second voice's click mixes into a word, and neither cuts the other.
  @Test func theSecondVoiceMixesIntoAWord() {
    // "Two" is said below zero, at the regular level: with the click it stays within full scale.
    let two = beat(2, at: 1_000)
    let voice = two.click(at: 2_000, level: .normal, voice: .polyrhythm(click: 1, of: 3))
    let samples = render([two, voice], frames: 4_096, withClick: false)
    let second = pulse.sounds[SoundKit.Voice.polyrhythm.rawValue]
    let word = -ClickSound.regularLevel
    for k in [0, 10, 100] { #expect(abs(samples[2_000 + k] - (word + second[k])) < 1e-6, "\(samples[2_000 + k])") }
    #expect(abs(samples[2_000 + second.count + 10] - word) < 1e-6, "the word goes on after the click")
  }

  /// "one and": the syllable cuts the word and the beat's word is shortened to fit before it.
  @Test func theNextWordCutsTheOneBefore() {
    let samples = render(
      [beat(1, at: 0, clicks: 2), beat(1, at: 12_000, click: 1, clicks: 2)], frames: 14_080, withClick: false)
    #expect(samples[11_000] == 1)
    #expect(abs(samples[11_999]) < 0.01, "faded out before the syllable")
    #expect(abs(samples[12_100] - ClickSound.subdivisionLevel) < 1e-6)
    #expect(abs(samples[12_101] + ClickSound.subdivisionLevel) < 1e-6)
  }
}
