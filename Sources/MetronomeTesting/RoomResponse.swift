/// A path from a speaker to a microphone: its impulse response, and where its direct sound is.
public protocol RoomResponse: Sendable {
  /// The response over `seconds` at `rate`, scaled so that the direct sound's peak is `directGain`.
  func impulseResponse(rate: Int, seconds: Double, directGain: Float) -> [Float]
  /// Frames from the speaker to the microphone along the direct path, at `rate`.
  func directFrames(at rate: Int) -> Int
}

extension SimulatedRoom: RoomResponse {}

/// A response made elsewhere (another room simulator, a measurement), given as its samples.
public struct ImpulseResponse: RoomResponse {
  /// The response's samples.
  public let samples: [Float]
  /// Their rate.
  public let rate: Int

  /// A response of `samples` at `rate`.
  public init(samples: [Float], rate: Int) {
    self.samples = samples
    self.rate = rate
  }

  /// The frame of the direct sound: the first to reach half the response's peak.
  public func directFrames(at rate: Int) -> Int {
    let peak = samples.reduce(Float(0)) { max($0, abs($1)) }
    return (samples.firstIndex { abs($0) >= peak / 2 } ?? 0) * rate / self.rate
  }

  /// The samples, over `seconds` (given at `rate`, which must be theirs), scaled so that the
  /// direct sound's peak is `directGain`.
  public func impulseResponse(rate: Int, seconds: Double, directGain: Float) -> [Float] {
    precondition(rate == self.rate, "a response is heard at its own rate")
    let direct = directFrames(at: rate)
    let peak = samples[max(direct - 1, 0)...min(direct + 1, samples.count - 1)].map(abs).max() ?? 1
    let length = min(samples.count, Int(seconds * Double(rate)))
    return samples.prefix(length).map { $0 * directGain / max(peak, 1e-9) }
  }
}
