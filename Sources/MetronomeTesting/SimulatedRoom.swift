import Foundation

/// A shoebox room's impulse response from a speaker to a microphone, by the image method.
///
/// As Allen and Berkley's "Image method for efficiently simulating small-room acoustics" (JASA
/// 65(4), 1979): every mirror image of the speaker in the walls, up to `seconds` away, heard at its
/// distance's delay and loudness, losing a wall's reflection factor at each bounce. The walls
/// absorb alike, as much as Sabine's formula says for the reverberation time asked.
public struct SimulatedRoom: Sendable {
  /// The room's width, depth and height in metres.
  public let size: (Double, Double, Double)
  /// How long the sound takes to fall by 60 dB, in seconds.
  public let reverberation: Double
  /// Where the speaker is, in metres from the room's corner.
  public let speaker: (Double, Double, Double)
  /// Where the microphone is.
  public let microphone: (Double, Double, Double)

  private static let speedOfSound = 343.0

  /// A room as given.
  public init(
    size: (Double, Double, Double), reverberation: Double, speaker: (Double, Double, Double),
    microphone: (Double, Double, Double)
  ) {
    self.size = size
    self.reverberation = reverberation
    self.speaker = speaker
    self.microphone = microphone
  }

  /// The distance from the speaker to the microphone, in metres.
  public var distance: Double {
    ((speaker.0 - microphone.0) * (speaker.0 - microphone.0) + (speaker.1 - microphone.1) * (speaker.1 - microphone.1)
      + (speaker.2 - microphone.2) * (speaker.2 - microphone.2)).squareRoot()
  }

  /// The same room with the microphone `metres` farther from the speaker, along the line between.
  public func microphoneMoved(by metres: Double) -> SimulatedRoom {
    let scale = 1 + metres / distance
    return SimulatedRoom(
      size: size, reverberation: reverberation, speaker: speaker,
      microphone: (
        speaker.0 + (microphone.0 - speaker.0) * scale, speaker.1 + (microphone.1 - speaker.1) * scale,
        speaker.2 + (microphone.2 - speaker.2) * scale
      ))
  }

  /// Frames from the speaker to the microphone along the direct path, rounded.
  public func directFrames(at rate: Int) -> Int { Int((distance / Self.speedOfSound * Double(rate)).rounded()) }

  /// The impulse response over `seconds` at `rate`, scaled so that the direct sound's peak is
  /// `directGain`; each image's delay split between its two nearest frames.
  public func impulseResponse(rate: Int, seconds: Double, directGain: Float) -> [Float] {
    let length = Int(seconds * Double(rate))
    var response = [Float](repeating: 0, count: length)
    let (width, depth, height) = size
    let volume = width * depth * height
    let surface = 2 * (width * depth + width * height + depth * height)
    let absorption = min(0.161 * volume / (surface * reverberation), 1)
    let reflection = (1 - absorption).squareRoot()
    let reach = Self.speedOfSound * seconds
    func images(_ wall: Double, _ source: Double) -> [(position: Double, bounces: Int)] {
      let most = Int((reach / wall).rounded(.up)) + 1
      return (-most...most).map { index in
        (Double(index) * wall + (index.isMultiple(of: 2) ? source : wall - source), abs(index))
      }
    }
    let xs = images(width, speaker.0)
    let ys = images(depth, speaker.1)
    let zs = images(height, speaker.2)
    for x in xs {
      let dx = x.position - microphone.0
      guard abs(dx) < reach else { continue }
      for y in ys {
        let dy = y.position - microphone.1
        guard dx * dx + dy * dy < reach * reach else { continue }
        for z in zs {
          let dz = z.position - microphone.2
          let distance = (dx * dx + dy * dy + dz * dz).squareRoot()
          let delay = distance / Self.speedOfSound * Double(rate)
          let frame = Int(delay)
          guard frame + 1 < length else { continue }
          let gain = pow(reflection, Double(x.bounces + y.bounces + z.bounces)) / max(distance, 0.1)
          let fraction = delay - Double(frame)
          response[frame] += Float(gain * (1 - fraction))
          response[frame + 1] += Float(gain * fraction)
        }
      }
    }
    let direct = directFrames(at: rate)
    let peak = response[max(direct - 1, 0)...min(direct + 1, length - 1)].map(abs).max() ?? 1
    return response.map { $0 * directGain / max(peak, 1e-9) }
  }

  /// `signal` as the microphone hears it through `response`, as long as `signal`: the two
  /// convolved through the FFT.
  public static func heard(_ signal: [Float], through response: [Float]) -> [Float] {
    var length = 2
    while length < signal.count + response.count { length <<= 1 }
    let fft = RealFFT(length: length)
    var padded = [Float](repeating: 0, count: length)
    var signalSpectrum = [Float](repeating: 0, count: fft.spectrumFloats)
    var responseSpectrum = [Float](repeating: 0, count: fft.spectrumFloats)
    for (index, sample) in signal.enumerated() { padded[index] = sample }
    fft.forward(padded, into: &signalSpectrum)
    padded = [Float](repeating: 0, count: length)
    for (index, tap) in response.enumerated() { padded[index] = tap }
    fft.forward(padded, into: &responseSpectrum)
    for bin in 0..<(fft.spectrumFloats / 2) {
      let (a, b) = (signalSpectrum[2 * bin], signalSpectrum[2 * bin + 1])
      let (c, d) = (responseSpectrum[2 * bin], responseSpectrum[2 * bin + 1])
      signalSpectrum[2 * bin] = (a * c - b * d) / Float(length)
      signalSpectrum[2 * bin + 1] = (a * d + b * c) / Float(length)
    }
    fft.inverse(signalSpectrum, into: &padded)
    return Array(padded.prefix(signal.count))
  }
}
