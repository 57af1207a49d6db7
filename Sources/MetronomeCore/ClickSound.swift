import Glibc

/// The built-in click sounds.
///
/// Each is short and dry, starts at full strength on its first sample
/// (so its onset is the beat's frame), and has a higher, louder accent for strong beats and a
/// quieter click for weak ones.
public enum ClickSound: String, CaseIterable, Hashable, Sendable {
  /// A decaying square wave, like klick's default.
  case pulse
  /// A decaying sine beep.
  case beep
  /// A short tone with a burst of noise, like a woodblock.
  case woodblock

  /// What plays for klick's built-in sound `number` (its square wave, sine, noise and bell, 0 to 3):
  /// the pulse, the beep and the woodblock come nearest, the pulse for the noise; nil for another
  /// number.
  public init?(klickNumber number: Int) {
    guard (0...3).contains(number) else { return nil }
    self = [ClickSound.pulse, .beep, .pulse, .woodblock][number]
  }

  /// klick's number for the sound nearest to this one.
  public var klickNumber: Int {
    switch self {
    case .pulse: 0
    case .beep: 1
    case .woodblock: 3
    }
  }

  /// Peak level of the regular click relative to the accent, so beat one stands out.
  public static let regularLevel: Float = 0.6
  /// Peak level of a weak beat's click relative to the accent: half the regular one.
  public static let weakLevel: Float = 0.3
  /// Peak level of a subdivision's click relative to the accent: between a weak and a normal beat's.
  public static let subdivisionLevel: Float = 0.45
  /// Peak level of the second voice's click relative to the accent.
  public static let polyrhythmLevel: Float = 0.5
  /// The count-in's peak, relative to the accent.
  public static let countInLevel: Float = 0.8

  /// The click of a beat at `level` as samples in -1...1 at `sampleRate`: the accent at a peak
  /// of `volume` (0...1) for a strong beat, the regular click at `volume × regularLevel` for a
  /// normal one and at `volume × weakLevel` for a weak one, nothing for a silent one; it never clips.
  public func samples(level: AccentLevel, sampleRate: SampleRate, volume: Double) -> [Float] {
    let peak: Float
    switch level {
    case .strong: peak = 1
    case .normal: peak = Self.regularLevel
    case .weak: peak = Self.weakLevel
    case .silent: return []
    }
    let accent = level == .strong
    return samples(
      frequency: accent ? pitches.accent : pitches.regular, lengthScale: 1, seed: accent ? 0x9E37_79B9 : 0x85EB_CA6B,
      sampleRate: sampleRate, peak: Self.clamped(volume) * peak)
  }

  /// The click of a subdivision, as samples in -1...1 at `sampleRate`: higher than the beats'
  /// and half as long, at a peak of `volume × subdivisionLevel`.
  public func subdivisionSamples(sampleRate: SampleRate, volume: Double) -> [Float] {
    samples(
      frequency: subdivisionPitch, lengthScale: 0.5, seed: 0xC2B2_AE35, sampleRate: sampleRate,
      peak: Self.clamped(volume) * Self.subdivisionLevel)
  }

  /// The click of the second voice (a polyrhythm), as samples in -1...1 at `sampleRate`: an
  /// octave below the regular click, as long as the beats', at a peak of `volume × polyrhythmLevel`.
  public func polyrhythmSamples(sampleRate: SampleRate, volume: Double) -> [Float] {
    samples(
      frequency: pitches.regular / 2, lengthScale: 1, seed: 0x27D4_EB2F, sampleRate: sampleRate,
      peak: Self.clamped(volume) * Self.polyrhythmLevel)
  }

  /// The click of a count-in, as samples in -1...1 at `sampleRate`: an octave above the accent,
  /// so that it is told from the music it leads into, at a peak of `volume × countInLevel`.
  public func countInSamples(sampleRate: SampleRate, volume: Double) -> [Float] {
    samples(
      frequency: pitches.accent * 2, lengthScale: 1, seed: 0x1656_67B1, sampleRate: sampleRate,
      peak: Self.clamped(volume) * Self.countInLevel)
  }

  /// The pitch of a subdivision's click, in Hz: a fifth above the accent.
  public var subdivisionPitch: Double { pitches.accent * 1.5 }

  private static func clamped(_ volume: Double) -> Float { Float(min(max(volume, 0), 1)) }

  private func samples(frequency: Double, lengthScale: Double, seed: UInt32, sampleRate: SampleRate, peak: Float)
    -> [Float]
  {
    let rate = Double(sampleRate.hz)
    let shape = self.shape(frequency: frequency, lengthScale: lengthScale)
    let count = Int((shape.seconds * rate).rounded())
    var noise = NoiseGenerator(seed: seed)
    var samples = [Float](repeating: 0, count: count)
    for index in 0..<count {
      let time = Double(index) / rate
      let envelope = Self.envelope(at: time, decay: shape.decay, length: shape.seconds)
      let phase = time * shape.frequency
      switch self {
      case .pulse:
        samples[index] = Float((phase - phase.rounded(.down) < 0.5 ? 1.0 : -1.0) * envelope)
      case .beep:
        samples[index] = Float(Self.cosine(phase) * envelope)
      case .woodblock:
        samples[index] = Float((Self.cosine(phase) + 0.35 * noise.next()) * envelope)
      }
    }
    Self.normalise(&samples, peak: peak)
    return samples
  }

  /// The pitch of the accent and of the regular click, in Hz.
  public var pitches: (accent: Double, regular: Double) {
    switch self {
    case .pulse: return (1_600, 1_000)
    case .beep: return (1_760, 880)
    case .woodblock: return (1_900, 1_250)
    }
  }

  private func shape(frequency: Double, lengthScale: Double) -> (frequency: Double, seconds: Double, decay: Double) {
    let (seconds, decay) =
      switch self {
      case .pulse: (0.030, 0.008)
      case .beep: (0.060, 0.015)
      case .woodblock: (0.040, 0.010)
      }
    return (frequency, seconds * lengthScale, decay * lengthScale)
  }

  /// Exponential decay, with a short fade at the very end so the click stops without a step.
  private static func envelope(at time: Double, decay: Double, length: Double) -> Double {
    let fade = min(1, (length - time) / 0.002)
    return exp(-time / decay) * max(fade, 0)
  }

  private static func cosine(_ cycles: Double) -> Double { cos(2 * Double.pi * cycles) }

  /// Scales `samples` so the largest magnitude is exactly `peak`.
  private static func normalise(_ samples: inout [Float], peak: Float) {
    let largest = samples.reduce(Float(0)) { max($0, abs($1)) }
    guard largest > 0 else { return }
    let gain = peak / largest
    for index in samples.indices { samples[index] *= gain }
  }
}

/// Deterministic white noise in -1...1 (xorshift), so every run renders the same click.
private struct NoiseGenerator {
  private var state: UInt32

  init(seed: UInt32) { state = seed }

  mutating func next() -> Double {
    state ^= state << 13
    state ^= state >> 17
    state ^= state << 5
    return Double(state) / Double(UInt32.max) * 2 - 1
  }
}
