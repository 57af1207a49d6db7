/// How far off the level the answers were last scaled to may be, as a share of the echo, until
/// 16 segments heard alone and as loud as predicted settle it.
struct LevelDoubt {
  /// The segments heard alone and as loud that settle a doubt.
  static let settledAfter = 16
  private var doubt: Float = 0
  /// The segments heard alone and as loud still to come before the doubt is settled.
  private(set) var segmentsLeft = 0

  /// The share of the echo what is left of it may be while the doubt lasts; 0 once settled.
  var share: Float { segmentsLeft > 0 ? doubt : 0 }

  /// Whether a segment whose input crossed the echo predicted, of energy `echo`, by `crossed` was
  /// heard as loud as predicted: within 2 %.
  static func isAsLoud(crossed: Float, echo: Float) -> Bool { abs(crossed - echo) <= 0.02 * echo }

  /// Doubts the level by `share` anew, for the next 16 segments heard alone and as loud.
  mutating func doubt(by share: Float) {
    doubt = share
    segmentsLeft = Self.settledAfter
  }

  /// One segment more heard alone and as loud as predicted.
  mutating func settle() { segmentsLeft = max(segmentsLeft - 1, 0) }
}
