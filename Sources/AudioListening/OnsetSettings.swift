/// How loud and how sudden a sound must be for the onset detector to take it for a hit.
public struct OnsetSettings: Equatable, Sendable {
  /// The quietest attack that counts, in dB below full scale (`--onset-level`).
  public var level: Double
  /// How far an attack must rise above the sound just before it, in dB (`--onset-rise`): lower
  /// hears softer hits over a ringing drum, higher ignores more of the room.
  public var rise: Double
  /// The shortest time between two hits, in seconds: a drum's own rattle inside it is one hit.
  public var spacing: Double

  /// The defaults: -50 dBFS, a 12 dB rise, 25 ms apart (a flam's two strokes are further apart
  /// than that, a 32nd note at 200 BPM is 37.5 ms).
  public static let standard = OnsetSettings(level: -50, rise: 12, spacing: 0.025)

  /// The values allowed: a level from -90 to 0 dBFS and a rise from 3 to 40 dB.
  public static let levels = -90.0...0.0
  /// The rises allowed.
  public static let rises = 3.0...40.0

  /// Settings as given.
  public init(level: Double, rise: Double, spacing: Double) {
    self.level = level
    self.rise = rise
    self.spacing = spacing
  }
}
