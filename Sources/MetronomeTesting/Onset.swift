/// Where a click starts in recorded audio, and how loud it starts.
public struct Onset: Equatable, Sendable {
  /// The first frame at or above the threshold after a stretch of quiet.
  public let frame: Int
  /// The largest magnitude in the millisecond after `frame`.
  public let peak: Float

  /// The onsets in `samples`: frames whose magnitude reaches `threshold` after at least
  /// `quietFrames` frames below it (so a click's own zero crossings do not count).
  public static func detect(in samples: [Float], sampleRate: Int, threshold: Float = 0.05, quietFrames: Int? = nil)
    -> [Onset]
  {
    let quiet = quietFrames ?? sampleRate / 500
    let window = sampleRate / 1_000
    var onsets: [Onset] = []
    var quietRun = quiet
    for (index, sample) in samples.enumerated() {
      guard abs(sample) >= threshold else {
        quietRun += 1
        continue
      }
      if quietRun >= quiet {
        let end = min(index + window, samples.count)
        let peak = samples[index..<end].reduce(Float(0)) { max($0, abs($1)) }
        onsets.append(Onset(frame: index, peak: peak))
      }
      quietRun = 0
    }
    return onsets
  }
}
