import Glibc
import MetronomeCore

/// Finds percussive attacks in a stream of samples as they arrive, and places each on the frame
/// its sound starts.
///
/// The method is the energy-envelope detection of Bello et al., "A Tutorial on Onset Detection
/// in Music Signals" (IEEE Transactions on Speech and Audio Processing 13(5), 2005, §3.1.1), in
/// two bands as Klapuri's ("Sound onset detection by applying psychoacoustic knowledge", ICASSP
/// 1999): the signal's first difference, which weights each frequency by its square and so
/// stands for the high-frequency content of Masri (§3.1.2) in the time domain, where a hat's
/// attack stands out over a kick still ringing; and the signal below 200 Hz, where a soft kick
/// stands out over a ringing snare. Each band is read in hops of a third of a millisecond (four
/// frames at least); a hop whose peak in either band is `rise` dB above that band's mean peak
/// over the ten milliseconds before it (the last millisecond left out, so that a slow attack does
/// not raise its own threshold), with the signal itself at `level` or louder, starts an attack
/// (the adaptive threshold of §4.2). The band's peak is followed for three milliseconds; the
/// onset is then placed by backtracking from the first sample to reach a tenth of that peak to
/// where the rise began: the earliest sample at that tenth with no half millisecond below it
/// since. An attack is reported three milliseconds and a hop after it starts: the detector's
/// delay. The input's first eleven milliseconds, with nothing heard before them, start no attack,
/// and nor do the first after frames were lost (`restart(at:)`).
///
/// `@unchecked Sendable`: its state is touched only by the one thread that feeds it samples.
public final class OnsetDetector: @unchecked Sendable {
  /// The bands: the first difference, and the signal below 200 Hz.
  private static let bands = 2
  private let levelAmplitude: Float
  private let riseRatio: Float
  private let hop: Int
  private let gapHops = 3
  private let backgroundHops: Int
  private let confirmFrames: Int64
  private let lookbackFrames: Int64
  private let quietFrames: Int
  private let spacingFrames: Int64
  /// The pole of the DC blocker, a high-pass at 20 Hz, after which the level is read.
  private let dcPole: Float
  /// The coefficient of the low band's one-pole low-pass at 200 Hz.
  private let lowCoefficient: Float
  private var previousInput: Float = 0
  private var previousLevel: Float = 0
  private var low: Float = 0
  /// The loudest of the signal (its DC taken out) in this hop, and in the attack followed.
  private var hopLevel: Float = 0
  private var attackLevel: Float = 0
  /// The loudest a sound known not to be a hit may be in this hop.
  private var hopNoise: Float = 0
  /// Each band's recent magnitudes, by band times the ring's size plus frame modulo it.
  private var magnitudes: [Float]
  private let magnitudeRing: Int
  /// How loud a sound known not to be a hit may be on each recent frame, by frame modulo the ring's size.
  private var noises: [Float]
  /// Each band's recent hop peaks, by band times the ring's size plus hop modulo it.
  private var hopPeaks: [Float]
  private let hopRing: Int
  private var hopIndex: Int64 = 0
  private var hopPeak: (Float, Float) = (0, 0)
  private var hopFill = 0
  /// The attack being followed: its band, the sample that crossed the threshold, the band's
  /// sound before it and its peak so far.
  private var attack: (band: Int, trigger: Int64, background: Float, peak: Float)?
  /// No attack starts before this frame: the last one's spacing.
  private var quietUntil: Int64 = .min
  /// The frame from which the input follows frames it lost, where the detector starts anew.
  private var restartAt: Int64?
  /// The last frame read.
  private var lastFrame: Int64 = .min

  /// A detector for input at `sampleRate` with `settings`.
  public init(sampleRate: SampleRate, settings: OnsetSettings = .standard) {
    let hz = Double(sampleRate.hz)
    levelAmplitude = Float(pow(10, settings.level / 20))
    riseRatio = Float(pow(10, settings.rise / 20))
    hop = max(4, sampleRate.hz / 3_000)
    backgroundHops = Int((0.010 * hz).rounded()) / hop
    confirmFrames = Int64((0.003 * hz).rounded())
    lookbackFrames = Int64((0.003 * hz).rounded())
    quietFrames = Int((0.0005 * hz).rounded())
    spacingFrames = Int64((settings.spacing * hz).rounded())
    dcPole = Float(1 - 2 * Double.pi * 20 / hz)
    lowCoefficient = Float(1 - exp(-2 * Double.pi * 200 / hz))
    magnitudeRing = Self.magnitudeRingSize(lookback: lookbackFrames, confirm: confirmFrames, hop: hop)
    magnitudes = Array(repeating: 0, count: Self.bands * magnitudeRing)
    noises = Array(repeating: 0, count: magnitudeRing)
    hopRing = Self.hopRingSize(gap: gapHops, background: backgroundHops)
    hopPeaks = Array(repeating: 0, count: Self.bands * hopRing)
  }

  /// Frames after a start, or a restart, in which no attack starts: the background's hops and the
  /// gap before the hop at hand (eleven milliseconds).
  public var deafFrames: Int64 { Int64((gapHops + backgroundHops) * hop) }

  /// Starts anew from the input's frame `frame` on, as at the input's start.
  ///
  /// The frames before it were lost (a sound server ran its cycles without the client), so the
  /// sound jumps there from what was heard before, which is no attack. An attack being followed is
  /// placed by what was heard of it. The frames before `frame` still to come are read as before.
  public func restart(at frame: Int64) { restartAt = frame }

  /// Frames of each band's magnitudes kept, a power of two so that a slot is found by masking.
  ///
  /// An attack is placed from `lookback` frames before the sample that set it off through the hop
  /// that ends `confirm` frames after it: that, and a hop to spare.
  private static func magnitudeRingSize(lookback: Int64, confirm: Int64, hop: Int) -> Int {
    powerOfTwo(atLeast: Int(lookback + confirm) + 2 * hop)
  }

  /// Hop peaks kept: the hop at hand and the `gap` and `background` hops before it.
  private static func hopRingSize(gap: Int, background: Int) -> Int { powerOfTwo(atLeast: gap + background + 1) }

  /// The least power of two not under `count`.
  private static func powerOfTwo(atLeast count: Int) -> Int {
    var size = 1
    while size < count { size <<= 1 }
    return size
  }

  /// Reads `samples` and calls `found` with each attack whose three milliseconds have passed.
  ///
  /// `samples` are the input's frames from `firstFrame` on, each call's following the last's. A
  /// hop starts an attack only if its level is also `rise` above `noise` (as long as `samples`,
  /// when given: how loud a sound known not to be a hit may be on each frame) and the band it
  /// rises in reaches twice the noise, since a sharp sound's first difference is up to twice its
  /// amplitude: what a canceller leaves of a click, under a drum still ringing loud enough for the
  /// level, starts no attack. The rise is placed back only through samples at least as loud as
  /// the noise, so that a stroke played just after a click does not start on the click; twice
  /// the noise there placed a stroke a millisecond into a click's echo a millisecond late.
  /// Allocates nothing.
  public func process(
    _ samples: UnsafeBufferPointer<Float>, below noise: UnsafeBufferPointer<Float>? = nil, from firstFrame: Int64,
    found: (Attack) -> Void
  ) {
    let ring = Int64(magnitudeRing - 1)
    magnitudes.withUnsafeMutableBufferPointer { magnitudes in
      hopPeaks.withUnsafeMutableBufferPointer { hopPeaks in
        for (index, sample) in samples.enumerated() {
          let frame = firstFrame + Int64(index)
          if let restartAt, frame >= restartAt { startAnew(magnitudes, found) }
          lastFrame = frame
          let difference = sample - previousInput
          let level = difference + dcPole * previousLevel
          previousInput = sample
          previousLevel = level
          low += lowCoefficient * (level - low)
          let slot = Int(frame & ring)
          magnitudes[slot] = abs(difference)
          magnitudes[magnitudeRing + slot] = abs(low)
          hopPeak = (max(hopPeak.0, abs(difference)), max(hopPeak.1, abs(low)))
          hopLevel = max(hopLevel, abs(level))
          let frameNoise = noise?[index] ?? 0
          hopNoise = max(hopNoise, frameNoise)
          noises[slot] = frameNoise
          hopFill += 1
          guard hopFill == hop else { continue }
          endHop(at: frame, magnitudes, hopPeaks, found)
          hopFill = 0
          hopPeak = (0, 0)
          hopLevel = 0
          hopNoise = 0
        }
      }
    }
  }

  /// Forgets what was heard before the frame at hand, once the attack under way is placed by what
  /// was heard of it: as at the input's start, no attack starts in the hops whose background
  /// would reach back before it.
  private func startAnew(_ magnitudes: UnsafeMutableBufferPointer<Float>, _ found: (Attack) -> Void) {
    restartAt = nil
    hopIndex = 0
    guard let followed = attack else { return }
    let onset = place(followed, through: lastFrame, magnitudes)
    quietUntil = onset.frame + spacingFrames
    attack = nil
    found(onset)
  }

  /// A hop ended on `last`: follows the attack under way, or starts one.
  private func endHop(
    at last: Int64, _ magnitudes: UnsafeMutableBufferPointer<Float>, _ hopPeaks: UnsafeMutableBufferPointer<Float>,
    _ found: (Attack) -> Void
  ) {
    let slot = Int(hopIndex & Int64(hopRing - 1))
    hopPeaks[slot] = hopPeak.0
    hopPeaks[hopRing + slot] = hopPeak.1
    defer { hopIndex += 1 }
    if var followed = attack {
      followed.peak = max(followed.peak, followed.band == 0 ? hopPeak.0 : hopPeak.1)
      attackLevel = max(attackLevel, hopLevel)
      if last >= followed.trigger + confirmFrames {
        let onset = place(followed, through: last, magnitudes)
        quietUntil = onset.frame + spacingFrames
        attack = nil
        found(onset)
      } else {
        attack = followed
      }
      return
    }
    // The input's first milliseconds have no sound before them to rise above.
    let first = last - Int64(hop) + 1
    guard hopIndex >= gapHops + backgroundHops, hopLevel >= max(levelAmplitude, riseRatio * hopNoise),
      first >= quietUntil
    else { return }
    for band in 0..<Self.bands {
      var sum: Float = 0
      var loudest: Float = 0
      for back in gapHops..<(gapHops + backgroundHops) {
        let peak = hopPeaks[band * hopRing + Int((hopIndex - Int64(back)) & Int64(hopRing - 1))]
        sum += peak
        loudest = max(loudest, peak)
      }
      let background = band == 0 ? sum / Float(backgroundHops) : loudest
      // A floor far below any level asked for, so that digital silence never rises above itself.
      let threshold = max(levelAmplitude / 1_000, riseRatio * background, 2 * hopNoise)
      let peak = band == 0 ? hopPeak.0 : hopPeak.1
      guard peak >= threshold else { continue }
      var trigger = first
      while magnitudes[band * magnitudeRing + Int(trigger & Int64(magnitudeRing - 1))] < threshold { trigger += 1 }
      attack = (band, trigger, background, peak)
      attackLevel = hopLevel
      return
    }
  }

  /// Where `attack`'s sound starts: the first sample from its trigger on at a tenth of its peak
  /// (and twice the sound before it), then back over the samples at that level (and the noise's)
  /// with no half millisecond of quiet between them.
  private func place(
    _ attack: (band: Int, trigger: Int64, background: Float, peak: Float), through last: Int64,
    _ magnitudes: UnsafeMutableBufferPointer<Float>
  ) -> Attack {
    let ring = Int64(magnitudeRing - 1)
    let base = attack.band * magnitudeRing
    let threshold = min(attack.peak, max(attack.peak / 10, 2 * attack.background))
    var start = attack.trigger
    while start < last, magnitudes[base + Int(start & ring)] < threshold { start += 1 }
    // Never before the input's first frame: no attack starts in its first eleven milliseconds.
    let earliest = max(attack.trigger - lookbackFrames, quietUntil)
    var quiet = 0
    var frame = start - 1
    while frame >= earliest, quiet < quietFrames {
      if magnitudes[base + Int(frame & ring)] >= max(threshold, noises[Int(frame & ring)]) {
        start = frame
        quiet = 0
      } else {
        quiet += 1
      }
      frame -= 1
    }
    return Attack(frame: start, level: 20 * log10(Double(max(attackLevel, 1e-9))))
  }
}
