import MetronomeCore

/// A click played higher or lower, as klick's sound pitch plays it: resampled, so that a click
/// an octave up (a factor of 2) is half as long.
public enum ClickPitch {
  /// The factors a click may be pitched by: three octaves either way.
  public static let factors = 0.125...8.0

  /// `samples`, played at `sampleRate`, pitched by `factor`; nil for a factor out of `factors`.
  public static func pitched(_ samples: [Float], by factor: Double, sampleRate: SampleRate) -> [Float]? {
    guard factors.contains(factor) else { return nil }
    guard factor != 1 else { return samples }
    return try? Resampler.convert(samples, from: Int((Double(sampleRate.hz) * factor).rounded()), to: sampleRate.hz)
  }
}
