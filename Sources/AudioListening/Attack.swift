import Glibc

/// An attack the onset detector found: where it starts, on the input's frames, and how loud it is.
public struct Attack: Equatable, Sendable {
  /// The first frame of the attack.
  public let frame: Int64
  /// Its peak over the first milliseconds, in dB below full scale.
  public let level: Double

  /// An onset as given.
  public init(frame: Int64, level: Double) {
    self.frame = frame
    self.level = level
  }

  /// The MIDI velocity a hit this loud stands for: 127 at full scale, 40 dB lower for a tenth of
  /// it (as drum modules map velocity to level), at least 1.
  public var velocity: Int {
    Int(min(max((127 * pow(10, level / 40)).rounded(), 1), 127))
  }
}
