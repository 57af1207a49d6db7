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

  /// Kits handed over faster than periods are rendered: the last one plays.
  @Test func theLastKitHandedOverPlays() {
    renderer.play(beep)
    renderer.play(pulse.transformed { _, sound in sound.map { $0 / 2 } })
    click(at: 0)
    let period = renderer.render(frames: 64)
    #expect(Array(period.samples) == pulse.sounds[0].prefix(64).map { $0 / 2 })
  }
}
