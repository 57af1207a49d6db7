import Foundation
import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ClickSoundTests {
  @Test(arguments: ClickSound.allCases)
  func accentIsLouderAndNothingClipsAtFullVolume(sound: ClickSound) {
    let accent = sound.samples(level: .strong, sampleRate: .standard, volume: 1)
    let regular = sound.samples(level: .normal, sampleRate: .standard, volume: 1)
    let peak = { (samples: [Float]) in samples.reduce(Float(0)) { max($0, abs($1)) } }
    #expect(peak(accent) == 1)
    #expect(abs(peak(regular) - ClickSound.regularLevel) < 1e-6)
    #expect(accent.count < 48_000 / 10)
    #expect(abs(accent[0]) > 0.5)
  }

  @Test(arguments: ClickSound.allCases)
  func accentAndRegularDifferInPitchNotJustLevel(sound: ClickSound) {
    let accent = sound.samples(level: .strong, sampleRate: .standard, volume: 1)
    let regular = sound.samples(level: .normal, sampleRate: .standard, volume: 1)
    let (high, low) = sound.pitches
    #expect(power(of: accent, at: high) > 4 * power(of: accent, at: low))
    #expect(power(of: regular, at: low) > 4 * power(of: regular, at: high))
  }

  /// The power of `samples` at `frequency` (Goertzel's algorithm) at 48 kHz.
  private func power(of samples: [Float], at frequency: Double) -> Double {
    let coefficient = 2 * cos(2 * Double.pi * frequency / 48_000)
    var (previous, beforePrevious) = (0.0, 0.0)
    for sample in samples {
      (previous, beforePrevious) = (Double(sample) + coefficient * previous - beforePrevious, previous)
    }
    return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
  }

  @Test(arguments: ClickSound.allCases)
  func aWeakBeatIsTheRegularClickAtHalfItsLevelAndASilentOneIsNothing(sound: ClickSound) {
    let regular = sound.samples(level: .normal, sampleRate: .standard, volume: 0.8)
    let weak = sound.samples(level: .weak, sampleRate: .standard, volume: 0.8)
    #expect(weak.count == regular.count)
    for (weak, regular) in zip(weak, regular) { #expect(abs(weak - regular / 2) < 1e-6) }
    #expect(sound.samples(level: .silent, sampleRate: .standard, volume: 1).isEmpty)
  }

  @Test func volumeScalesThePeak() {
    let quiet = ClickSound.beep.samples(level: .strong, sampleRate: .standard, volume: 0.25)
    #expect(quiet.reduce(Float(0)) { max($0, abs($1)) } == 0.25)
  }

  @Test func theSameClickEveryTime() {
    #expect(
      ClickSound.woodblock.samples(level: .normal, sampleRate: .standard, volume: 1)
        == ClickSound.woodblock.samples(level: .normal, sampleRate: .standard, volume: 1)
    )
  }
}
