/// What the display for screen readers (`--plain`) says: nothing is redrawn, and a line is
/// printed only when something a player would want told changes (tempo, meter, play or pause,
/// the subdivision, mute, the second voice, the song, the section, a count-in); a pure function.
public enum PlainNarration {
  /// The lines that tell what changed from `old` (nil at the start) to `new`.
  public static func lines(from old: DisplayState?, to new: DisplayState) -> [String] {
    var lines: [String] = []
    if old == nil { lines.append("keys: " + new.keyHelp.joined(separator: ", ")) }
    if old.map(status) != status(new) { lines.append(status(new)) }
    if let song = new.song, song != old?.song { lines.append("song \(song)") }
    if let section = new.sectionTitle, section != old?.sectionTitle { lines.append("section \(section)") }
    if new.isPlaying, new.isCountIn, old?.isCountIn != true { lines.append("count-in") }
    return lines
  }

  /// "120 BPM, 4/4, playing", with the subdivision, the second voice and mute when they apply.
  private static func status(_ state: DisplayState) -> String {
    ([state.tempoText, state.signature]
      + (state.subdivision.count > 1 ? ["clicks per beat \(state.subdivision)"] : [])
      + (state.polyrhythm.map { ["\($0) against \(state.beatsPerBar)"] } ?? [])
      + [state.isPlaying ? "playing" : "paused"] + (state.isMuted ? ["muted"] : []))
      .joined(separator: ", ")
  }
}
