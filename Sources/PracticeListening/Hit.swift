/// A note the player played, placed on the run's frames where the clicks are heard: the frame it
/// reached the input on, less the input's latency, the output's latency and the input offset, so
/// that a hit exactly on a click the player heard has that click's frame.
public struct Hit: Hashable, Sendable {
  /// When it was played, on the run's frames.
  public let frame: Int64
  /// The MIDI note (a kit's kick is 36, its snare 38), `keyNote` for a typed key or `audioNote`
  /// for an attack heard on an audio input.
  public let note: Int
  /// How hard, 1 to 127.
  public let velocity: Int
  /// What placed it, for an attack heard on an audio input.
  public let placement: HitPlacement?

  /// The note of a typed key.
  public static let keyNote = -1
  /// The note of an attack heard on an audio input, whose velocity stands for its level.
  public static let audioNote = -2

  /// Whether it was a typed key rather than a MIDI note.
  public var isKey: Bool { note == Self.keyNote }

  /// Whether it was heard on an audio input rather than played as a MIDI note.
  public var isAudio: Bool { note == Self.audioNote }

  /// A hit as given.
  public init(frame: Int64, note: Int, velocity: Int, placement: HitPlacement? = nil) {
    self.frame = frame
    self.note = note
    self.velocity = velocity
    self.placement = placement
  }
}
