/// Which MIDI messages count as hits: note-ons (a note-on at velocity 0 is a note-off and does
/// not), of the notes listened to, at a velocity of at least the minimum.
public struct HitFilter: Equatable, Sendable {
  /// The notes listened to; nil for every note.
  public let notes: Set<Int>?
  /// The softest velocity that counts.
  public let minimumVelocity: Int

  /// Every note at any velocity.
  public init() {
    notes = nil
    minimumVelocity = 1
  }

  /// `notes` (nil for every note) at `minimumVelocity` (1 to 127) or harder; throws a line saying
  /// what is wrong.
  public init(notes: Set<Int>?, minimumVelocity: Int) throws(HitFilterError) {
    guard (1...127).contains(minimumVelocity) else {
      throw HitFilterError("--listen-velocity must be from 1 to 127")
    }
    self.minimumVelocity = minimumVelocity
    self.notes = notes
  }

  /// The notes `list` names, as `--listen-notes` takes them: MIDI notes from 0 to 127 and ranges,
  /// `36,38` or `35-38`; throws a line saying what is wrong.
  public static func notes(parsing list: String) throws(HitFilterError) -> Set<Int> {
    var notes = Set<Int>()
    for item in list.split(separator: ",", omittingEmptySubsequences: false) {
      let bounds = item.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { Int($0) }
      guard let low = bounds.first ?? nil, let high = bounds.last ?? nil, 0 <= low, low <= high, high <= 127 else {
        throw HitFilterError(
          "give MIDI notes from 0 to 127 and ranges, such as 36,38 or 35-38: '\(item)' is not one")
      }
      notes.formUnion(low...high)
    }
    return notes
  }

  /// The hit that a MIDI message of `status`, `first` and `second` data bytes is, played at
  /// `frame`; nil for any other message, another note or a softer one (a note-on at velocity 0,
  /// a note-off, is softer than every minimum).
  public func hit(status: UInt8, _ first: UInt8, _ second: UInt8, atFrame frame: Int64) -> Hit? {
    guard status & 0xF0 == 0x90, Int(second) >= minimumVelocity else { return nil }
    guard notes?.contains(Int(first)) ?? true else { return nil }
    return Hit(frame: frame, note: Int(first), velocity: Int(second))
  }
}

/// A `--listen-notes` or `--listen-velocity` that cannot be used, and why.
public struct HitFilterError: Error, Equatable, CustomStringConvertible {
  /// What is wrong and what to give instead.
  public let description: String

  /// An error saying `description`.
  public init(_ description: String) { self.description = description }
}
