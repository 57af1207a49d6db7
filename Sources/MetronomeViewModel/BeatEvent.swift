import MetronomeControl
import MetronomeCore

/// What the beats playing are told of an action beyond the settings it leads to: live control of
/// a map, or a new start where another song or an outside clock's new anchor begins.
public enum BeatEvent: Hashable, Sendable {
  /// A jump between a map's sections, or a loop turned on or off, from the next beat.
  case control(LiveControl)
  /// The beats start again at once from the settings in force: another song of a setlist,
  /// counted in, or a new anchor of the outside clock followed.
  case startAgain
}

extension MetronomeState {
  /// What the beats playing are told of `action`, which led to this state from `previous`.
  public func beatEvents(after action: MetronomeAction, from previous: MetronomeState) -> [BeatEvent] {
    switch action {
    case .jumpSection(let offset) where programme.map != nil: [.control(.jump(by: offset))]
    case .moveAtSectionEnd(let offset) where programme.holdsSections: [.control(.moveAtSectionEnd(by: offset))]
    case .toggleSectionLoop where programme.map != nil: [.control(.loop(programme.loopsSection))]
    case .follow(.some): [.startAgain]
    case _ where songPlaying != previous.songPlaying: [.startAgain]
    default: []
    }
  }
}
