import MetronomeCore

/// When the frames of a live run are heard, on the host's monotonic clock, estimated from the
/// device's delay read now and then.
///
/// A reading jitters (a device's position moves in steps, a sound server's delay by whole
/// periods), while the frames are heard at a steady pace: the estimate is the mean of the first
/// sixteen readings, then each reading moves it by a sixteenth of its difference, which follows
/// the device's clock drifting against the host's and smooths the steps away. A difference of
/// more than 50 ms is the stream having moved (after a glitch), and starts the estimate anew.
public struct HeardTime: Sendable {
  /// The rate frames are counted at.
  public let sampleRate: SampleRate
  /// When frame 0 is heard, in host microseconds.
  private var frameZeroMicros: Double?
  /// The readings the estimate stands on, counted up to `readingsAveraged`.
  private var readings = 0

  /// A difference from the estimate past which a reading is taken as it is.
  static let jumpMicros = 50_000.0
  /// The readings averaged before each moves the estimate by a share of this size.
  static let readingsAveraged = 16

  /// An estimate with no reading yet, for frames counted at `sampleRate`.
  public init(sampleRate: SampleRate) { self.sampleRate = sampleRate }

  /// Takes a reading: `frame` will be heard in `delayFrames` frames from `nowMicros`.
  public mutating func read(frame: Int64, heardInFrames delayFrames: Int64, atMicros nowMicros: Int64) {
    let reading = Double(nowMicros) + (Double(delayFrames) - Double(frame)) * microsPerFrame
    guard let estimate = frameZeroMicros, abs(reading - estimate) <= Self.jumpMicros else {
      frameZeroMicros = reading
      readings = 1
      return
    }
    readings = min(readings + 1, Self.readingsAveraged)
    frameZeroMicros = estimate + (reading - estimate) / Double(readings)
  }

  /// When `frame` will be heard, in host microseconds; nil before the first reading.
  public func micros(ofFrame frame: Int64) -> Int64? {
    // Held to Int64's range, so that no device's delay, however wild, traps the conversion.
    frameZeroMicros.map { Int64(min(max(($0 + Double(frame) * microsPerFrame).rounded(), -0x1p62), 0x1p62)) }
  }

  /// The frame heard at `micros` on the host's clock (the inverse of `micros(ofFrame:)`, rounded
  /// to the nearest frame); nil before the first reading.
  public func frame(atMicros micros: Int64) -> Int64? {
    frameZeroMicros.map { Int64(min(max(((Double(micros) - $0) / microsPerFrame).rounded(), -0x1p62), 0x1p62)) }
  }

  private var microsPerFrame: Double { 1e6 / Double(sampleRate.hz) }
}
