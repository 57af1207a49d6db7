/// How loud the clicks play beyond their sound and their map's volumes: a factor for all of them
/// and one each for the accented clicks and the others, which a remote control (klick's volume and
/// sound volumes) may change while the metronome plays.
public struct ClickGains: Hashable, Sendable {
  /// Every click's factor.
  public var overall: Double
  /// The strong clicks' factor, times `overall`.
  public var accented: Double
  /// Every other click's factor (normal, weak, subdivisions, second voice), times `overall`.
  public var unaccented: Double

  /// The largest factor: 24 dB up, past which a click only clips.
  public static let loudest = 16.0

  /// Each click as its sound has it.
  public static let unity = ClickGains(overall: 1, accented: 1, unaccented: 1)

  /// Gains as given.
  public init(overall: Double, accented: Double, unaccented: Double) {
    self.overall = overall
    self.accented = accented
    self.unaccented = unaccented
  }

  /// The factor a click at `level` plays with.
  public func gain(for level: AccentLevel) -> Double { overall * (level == .strong ? accented : unaccented) }
}
