/// Which beats flash the whole screen on the big display, and for how long, so that it never
/// flashes more than three times a second (WCAG 2.3.1's limit for content that may cause
/// seizures): every sounding beat while beats are at least a third of a second apart (up to 180
/// BPM in 4/4), above that only bar one, and never two flashes within a third of a second.
public struct ScreenFlashes: Sendable {
  /// The shortest time from one flash to the next, in seconds.
  public static let shortestSpacing = 1.0 / 3
  /// The longest a flash stays lit, in seconds.
  public static let longestFlash = 0.15

  /// When the last flash began, in seconds.
  private var lastFlash: Double?

  /// No flash yet.
  public init() {}

  /// How long the screen flashes for a beat, in seconds; nil for no flash.
  ///
  /// The beat is at `seconds` on the audio clock, `beatSpacing` seconds after the one before it,
  /// on beat `beatInBar` (from 1), sounding or not. A flash lasts half the spacing, at most
  /// `longestFlash`.
  public mutating func flash(at seconds: Double, beatSpacing: Double, beatInBar: Int, sounds: Bool) -> Double? {
    guard sounds, beatSpacing >= Self.shortestSpacing || beatInBar == 1 else { return nil }
    // A nanosecond's leeway, for beats exactly a third of a second apart whose times round apart.
    if let lastFlash, seconds - lastFlash < Self.shortestSpacing - 1e-9 { return nil }
    lastFlash = seconds
    return min(beatSpacing / 2, Self.longestFlash)
  }
}
