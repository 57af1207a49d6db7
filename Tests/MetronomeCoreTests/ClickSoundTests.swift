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

  /// Each voice's click as its documentation gives it, measured: the subdivision a fifth above
  /// the accent and half as long, the second voice an octave below the regular click and as
  /// long, the count-in an octave above the accent; each at its level of the volume asked, the
  /// volume kept within 0 to 1.
  @Test(arguments: ClickSound.allCases)
  func eachVoiceHasItsPitchLengthAndLevel(sound: ClickSound) {
    let rate = SampleRate.standard
    let accent = sound.samples(level: .strong, sampleRate: rate, volume: 0.5)
    let regular = sound.samples(level: .normal, sampleRate: rate, volume: 0.5)
    let subdivision = sound.subdivisionSamples(sampleRate: rate, volume: 0.5)
    let second = sound.polyrhythmSamples(sampleRate: rate, volume: 0.5)
    let countIn = sound.countInSamples(sampleRate: rate, volume: 0.5)
    let (high, low) = sound.pitches
    #expect(high > low)
    #expect(sound.subdivisionPitch == high * 1.5)
    for (samples, pitch, name) in [
      (accent, high, "accent"), (regular, low, "regular"), (subdivision, high * 1.5, "subdivision"),
      (second, low / 2, "second voice"), (countIn, high * 2, "count-in"),
    ] {
      let measured = Self.pitch(of: samples)
      #expect(abs(measured / pitch - 1) < 0.03, "\(sound) \(name): \(measured) Hz, not \(pitch)")
    }
    #expect(abs(subdivision.count * 2 - accent.count) <= 1)
    #expect(second.count == regular.count && countIn.count == accent.count && regular.count == accent.count)
    for (samples, level) in [
      (subdivision, ClickSound.subdivisionLevel), (second, ClickSound.polyrhythmLevel),
      (countIn, ClickSound.countInLevel),
    ] {
      #expect(abs(Self.peak(samples) - 0.5 * level) < 1e-6, "\(sound)")
    }
    #expect(ClickSound.subdivisionLevel == 0.45 && ClickSound.polyrhythmLevel == 0.5 && ClickSound.countInLevel == 0.8)
    #expect(abs(Self.peak(sound.subdivisionSamples(sampleRate: rate, volume: 3)) - ClickSound.subdivisionLevel) < 1e-6)
    #expect(Self.peak(sound.countInSamples(sampleRate: rate, volume: -1)) == 0)
    #expect(Self.peak(sound.samples(level: .strong, sampleRate: rate, volume: 7)) == 1)
  }

  /// Each click dies away: louder in its first tenth than in any later one, and nearly silent at
  /// its very end, so that it stops without a step.
  @Test(arguments: ClickSound.allCases)
  func eachClickDiesAwayToNothing(sound: ClickSound) throws {
    let clicks = [
      sound.samples(level: .strong, sampleRate: .standard, volume: 1),
      sound.subdivisionSamples(sampleRate: .standard, volume: 1),
      sound.polyrhythmSamples(sampleRate: .standard, volume: 1),
    ]
    for click in clicks {
      let tenth = click.count / 10
      let peaks = (0..<10).map { Self.peak(Array(click[($0 * tenth)..<(($0 + 1) * tenth)])) }
      #expect(peaks.dropFirst().allSatisfy { $0 < peaks[0] }, "\(sound): \(peaks)")
      #expect(peaks[9] < peaks[0] / 4, "\(sound): \(peaks)")
      let last = try #require(click.last)
      #expect(abs(last) < 0.02 * peaks[0], "\(sound) ends on \(last)")
    }
  }

  /// The woodblock is a tone with noise in it; the beep a pure tone: the noise shows as power
  /// far above the pitch (at 15 kHz).
  @Test func theWoodblockHasNoiseTheBeepHasNone() {
    let woodblock = ClickSound.woodblock.samples(level: .normal, sampleRate: .standard, volume: 1)
    let beep = ClickSound.beep.samples(level: .normal, sampleRate: .standard, volume: 1)
    let share = { (samples: [Float], pitch: Double) in
      self.power(of: samples, at: 15_000) / self.power(of: samples, at: pitch)
    }
    #expect(share(woodblock, ClickSound.woodblock.pitches.regular) > 100 * share(beep, ClickSound.beep.pitches.regular))
  }

  /// Each sound's shape: the pulse 30 ms, the beep 60, the woodblock 40; each decaying to a
  /// third (1/e) in 8, 15 and 10 ms, read off the pulse's square wave exactly and off the
  /// others' cycles; every one ending in a fade of its last 2 ms.
  @Test func eachSoundsLengthDecayAndFade() {
    let rate = SampleRate.standard
    let lengths = ClickSound.allCases.map { $0.samples(level: .normal, sampleRate: rate, volume: 1).count }
    #expect(lengths == [1_440, 2_880, 1_920])
    // The regular pulse, 1000 Hz: 24 samples up, 24 down, each of one magnitude but for the decay.
    let pulse = ClickSound.pulse.samples(level: .normal, sampleRate: rate, volume: 1)
    let decay = { (index: Int) in exp(-Double(index) / 48_000 / 0.008) }
    #expect(pulse[23] > 0 && pulse[24] < 0 && pulse[47] < 0 && pulse[48] > 0)
    #expect(abs(Double(pulse[24]) + Double(pulse[0]) * decay(24)) < 1e-5)
    #expect(abs(Double(pulse[384]) - Double(pulse[0]) * exp(-1)) < 1e-5)
    // 1 ms before the end, halfway through the fade.
    #expect(abs(Double(abs(pulse[1_392])) - Double(pulse[0]) * decay(1_392) / 2) < 1e-5)
    // The others' envelope, as their largest magnitude over a cycle around 0 and around the decay.
    for (sound, decayMilliseconds) in [(ClickSound.beep, 15.0), (.woodblock, 10)] {
      let samples = sound.samples(level: .normal, sampleRate: rate, volume: 1).map { Double(abs($0)) }
      let at = Int(decayMilliseconds * 48)
      let cycle = Int(48_000 / sound.pitches.regular) + 1
      let later = samples[(at - cycle / 2)..<(at + cycle / 2)].max() ?? 0
      let first = samples[0..<cycle].max() ?? 1
      #expect(abs(later / first - exp(-1)) < 0.06, "\(sound): \(later / first)")
    }
  }

  /// The woodblock's noise is centred: its click holds no offset (its samples' mean is within
  /// 1 % of its peak).
  @Test func theWoodblocksNoiseIsCentred() {
    let samples = ClickSound.woodblock.samples(level: .strong, sampleRate: .standard, volume: 1)
    let mean = samples.reduce(0, +) / Float(samples.count)
    #expect(abs(mean) < 0.01)
  }

  /// klick's numbers for the sounds, both ways.
  @Test func klicksNumbersNameTheSoundsBothWays() {
    for sound in ClickSound.allCases { #expect(ClickSound(klickNumber: sound.klickNumber) == sound) }
    #expect(ClickSound.allCases.map(\.klickNumber) == [0, 1, 3])
    #expect([-1, 4].allSatisfy { ClickSound(klickNumber: $0) == nil })
  }

  private static func peak(_ samples: [Float]) -> Float { samples.reduce(Float(0)) { max($0, abs($1)) } }

  /// The pitch of `samples` at 48 kHz: the lag, between 250 Hz's and 5 kHz's, at which they are
  /// most like themselves, placed between samples by the parabola through its neighbours.
  private static func pitch(of samples: [Float]) -> Double {
    let correlation = { (lag: Int) -> Double in
      (0..<(samples.count - lag)).reduce(0.0) { $0 + Double(samples[$1]) * Double(samples[$1 + lag]) }
    }
    let lags = (48_000 / 5_000)...(48_000 / 250)
    let values = lags.map(correlation)
    guard let best = values.indices.max(by: { values[$0] < values[$1] }), best > 0, best < values.count - 1 else {
      return 0
    }
    let (before, at, after) = (values[best - 1], values[best], values[best + 1])
    let shift = 0.5 * (before - after) / (before - 2 * at + after)
    return 48_000 / (Double(lags.lowerBound + best) + shift)
  }
}
