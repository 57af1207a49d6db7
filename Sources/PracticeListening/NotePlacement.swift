import MetronomeCore

/// Where a MIDI note was played on the run's frames, the same for JACK's port and the ALSA
/// sequencer's: the frame it arrived on, less the latencies it came through and `--input-offset`
/// (a positive offset is a delay the player's device adds: it is taken off, placing the note
/// earlier).
public struct NotePlacement: Equatable, Sendable {
  /// The input offset in frames, rounded to the nearest.
  public let offsetFrames: Int64

  /// Placement taking `inputOffset` milliseconds off every note at `sampleRate`.
  public init(inputOffset milliseconds: Double, sampleRate: SampleRate) {
    offsetFrames = Int64((milliseconds * Double(sampleRate.hz) / 1000).rounded())
  }

  /// The frame a note that arrived on frame `arrival`, `latency` frames after it was played
  /// against the clicks heard, was played on.
  public func frame(arrivedOn arrival: Int64, latency: Int64 = 0) -> Int64 { arrival - latency - offsetFrames }
}
