import MetronomeCore

/// Which of the output's frames each of an input's frames heard, where the input is a device of
/// its own (an ALSA capture device) rather than the output's own cycle (JACK).
///
/// Both devices say when their frame 0 was heard on the host's clock (`EarliestReading`): the
/// output when it played it, the input when it took it in. The input's frame `c` heard what the
/// output's frame `c + offset` played. The offset is taken once both have settled and kept while
/// they agree to half a millisecond, since a listener needs the input's frames in one steady line;
/// it is taken anew when they have moved further apart (a clock drifting, a stream that lost frames).
public struct CaptureAlignment: Sendable {
  /// The rate both count frames at.
  public let sampleRate: SampleRate
  /// The output's frame the input's frame 0 heard; nil until both devices have settled.
  public private(set) var offset: Int64?

  /// An alignment with nothing read yet, for frames counted at `sampleRate`.
  public init(sampleRate: SampleRate) { self.sampleRate = sampleRate }

  /// Takes when the input's frame 0 was heard and when the output's was (host microseconds, nil
  /// while a device has not settled).
  public mutating func update(inputFrameZeroMicros input: Double?, outputFrameZeroMicros output: Double?) {
    guard let input, let output else { return }
    let exact = (input - output) * Double(sampleRate.hz) / 1e6
    // A device's wild reading, years away, says nothing and must not trap the conversion.
    guard abs(exact) < 0x1p52 else { return }
    if let offset, abs(exact - Double(offset)) < Double(sampleRate.hz) / 2_000 { return }
    offset = Int64(exact.rounded())
  }

  /// Starts again, after the input lost frames.
  public mutating func restart() { offset = nil }
}
