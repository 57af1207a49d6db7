import MetronomeCore

/// A test signal played out and found again on the input, which says how many frames the path
/// from the output back to the input takes: a cable from one to the other, or a microphone in
/// front of the speaker.
///
/// Six bursts of seeded noise, 512 frames each, start 0.6 s apart; the input is kept from the
/// first on. The round trip is the lag, up to half a second, at which the input averaged over the
/// bursts' starts matches a burst best (the cross-correlation's peak, which a noise burst makes
/// sharp to the frame, where a tone would repeat every period); each burst on its own must peak
/// on the same frame within 64 either way, or the path does not keep one delay (a burst the input
/// lost, silent, says nothing either way).
///
/// `@unchecked Sendable`: played and recorded on the audio thread, measured after it is done.
public final class LoopbackProbe: @unchecked Sendable {
  /// The burst, at half of full scale.
  public let burst: [Float]
  /// The longest round trip looked for, in frames: half a second.
  public let longest: Int
  /// Frames from one burst's start to the next.
  private let spacing: Int
  private let bursts = 6
  /// The input from the first burst's start on.
  private var heard: [Float]
  private var recorded = 0

  /// A probe at `sampleRate`.
  public init(sampleRate: SampleRate) {
    // White noise from a fixed xorshift, so that every run plays the same burst.
    var state: UInt32 = 0x1007_BAC4
    burst = (0..<512).map { index in
      state ^= state << 13
      state ^= state >> 17
      state ^= state << 5
      let fade = Float(min(index, 511 - index, 16)) / 16
      return 0.5 * fade * (Float(state) / Float(UInt32.max) * 2 - 1)
    }
    longest = sampleRate.hz / 2
    spacing = longest + burst.count + sampleRate.hz / 10
    heard = [Float](repeating: 0, count: (bursts - 1) * spacing + longest + burst.count)
  }

  /// Frames from the first burst's start to the last frame listened to.
  public var duration: Int { heard.count }

  /// Whether all the input needed has been heard.
  public var isDone: Bool { recorded >= heard.count }

  /// Where a burst sounds in `frames` frames from `firstFrame`; nil where none does.
  ///
  /// Frames count from the first burst's start. The burst sounds from `offset` on, `count` of
  /// its samples from `position`. Cycles are shorter than the bursts' spacing, so that at most one sounds in each.
  public func burst(from firstFrame: Int, frames: Int) -> (offset: Int, position: Int, count: Int)? {
    // A frame before the first burst is in it, as frame 0 is.
    let frame = max(firstFrame, 0)
    let index = frame / spacing + (frame % spacing < burst.count ? 0 : 1)
    guard index < bursts else { return nil }
    let start = index * spacing
    let offset = max(0, start - firstFrame)
    let position = max(0, firstFrame - start)
    let count = min(frames - offset, burst.count - position)
    return count > 0 ? (offset, position, count) : nil
  }

  /// Writes into `output` the frames from `firstFrame` on (counted from the first burst's
  /// start): the burst where one sounds, silence elsewhere.
  public func play(into output: UnsafeMutableBufferPointer<Float>, from firstFrame: Int) {
    output.update(repeating: 0)
    guard let part = burst(from: firstFrame, frames: output.count) else { return }
    for index in 0..<part.count { output[part.offset + index] = burst[part.position + index] }
  }

  /// Keeps `input`, the input's frames from `firstFrame` on (from the first burst's start).
  public func record(_ input: UnsafeBufferPointer<Float>, from firstFrame: Int) {
    for (index, sample) in input.enumerated() where firstFrame + index >= 0 && firstFrame + index < heard.count {
      heard[firstFrame + index] = sample
    }
    recorded = max(recorded, min(firstFrame + input.count, heard.count))
  }

  /// The round trip found, or why none can be trusted.
  public func roundTrip() -> Result<LoopbackMeasurement, LoopbackError> {
    let length = longest + burst.count
    var average = [Float](repeating: 0, count: length)
    for index in 0..<bursts {
      for offset in 0..<length { average[offset] += heard[index * spacing + offset] }
    }
    let burstEnergy = burst.reduce(0) { $0 + $1 * $1 }
    var best: (lag: Int, correlation: Float)?
    for lag in 0..<longest {
      let correlation = correlation(of: average, at: lag)
      if abs(correlation) > abs(best?.correlation ?? 0) { best = (lag, correlation) }
    }
    guard let best else { return .failure(.nothingHeard) }
    let heardEnergy = average[best.lag..<(best.lag + burst.count)].reduce(0) { $0 + $1 * $1 }
    // A best correlation is not 0, so what it was read against is not silence (one too faint to
    // square makes the match not a number, which is refused below as nothing heard).
    let match = best.correlation * best.correlation / (burstEnergy * heardEnergy)
    guard match >= 0.25 else { return .failure(.nothingHeard) }
    for index in 0..<bursts {
      let start = index * spacing
      let one = Array(heard[start..<(start + length)])
      // Only a lag this burst matches better than the others' moves it: one the input lost
      // (silence) says nothing against them.
      var peak = (lag: best.lag, size: abs(correlation(of: one, at: best.lag)))
      for lag in max(0, best.lag - 64)..<min(longest, best.lag + 65) {
        let size = abs(correlation(of: one, at: lag))
        if size > peak.size { peak = (lag, size) }
      }
      if peak.lag != best.lag { return .failure(.unsteady(burst: index + 1, frames: peak.lag - best.lag)) }
    }
    return .success(
      LoopbackMeasurement(
        frames: best.lag, gain: best.correlation / burstEnergy / Float(bursts), match: match.squareRoot()))
  }

  /// The burst's correlation with `signal` from `lag` on.
  private func correlation(of signal: [Float], at lag: Int) -> Float {
    burst.withUnsafeBufferPointer { burst in
      signal.withUnsafeBufferPointer { signal in
        var sum: Float = 0
        for index in burst.indices { sum += burst[index] * signal[lag + index] }
        return sum
      }
    }
  }
}

/// A round trip measured: its frames, the gain from the output to the input, and how well the
/// input matched the burst (1 for a copy of it).
public struct LoopbackMeasurement: Equatable, Sendable {
  /// Frames from a sample played to its reaching the input.
  public let frames: Int
  /// The input's level over the output's, negative when the path turns it upside down.
  public let gain: Float
  /// The normalized correlation at the peak, 0 to 1.
  public let match: Float
}

/// Why a round trip cannot be trusted.
public enum LoopbackError: Error, Equatable, Sendable {
  /// The input held nothing like the bursts within half a second.
  case nothingHeard
  /// A burst came back `frames` away from where the others did.
  case unsteady(burst: Int, frames: Int)
}
