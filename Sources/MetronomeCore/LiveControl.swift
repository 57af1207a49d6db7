/// Live control of the beats playing, apart from what they started with: each is sent once, when
/// the player asks for it, and acts from the next beat.
public enum LiveControl: Hashable, Sendable {
  /// A move between a map's sections: 1 the next, -1 the previous, 0 the start of the one playing.
  case jump(by: Int)
  /// The section playing (or the bars looped, while they play) repeats seamlessly, or no longer.
  case loop(Bool)
  /// Where a map holds each section until told (an earned trainer): when the section playing
  /// ends, move by `offset` sections (1 the next, -1 the one before, 0 the same again).
  case moveAtSectionEnd(by: Int)
}
