import TerminalUI

extension KeyCommand {
  /// The action this key asks of the state, a tap timed at `seconds` on the beat clock; nil for
  /// `.quit`, which ends the session instead.
  public func action(tappedAtSeconds seconds: Double) -> MetronomeAction? {
    switch self {
    case .togglePlaying: .togglePlaying
    case .tapTempo: .tapTempo(atSeconds: seconds)
    case .nudgeTempo(let delta): .nudgeTempo(by: delta)
    case .scaleTempo(let factor): .scaleTempo(by: factor)
    case .stepNumerator(let delta): .stepNumerator(by: delta)
    case .stepDenominator(let delta): .stepDenominator(by: delta)
    case .cycleLevel(let beat): .cycleLevel(ofBeat: beat)
    case .stepSubdivision(let delta): .stepSubdivision(by: delta)
    case .stepSwing(let delta): .stepSwing(by: delta)
    case .toggleMute: .toggleMute
    case .togglePolyrhythmMute: .togglePolyrhythmMute
    case .jumpSection(let offset): .jumpSection(by: offset)
    case .toggleSectionLoop: .toggleSectionLoop
    case .moveSong(let offset): .moveSong(by: offset)
    case .reset: .reset
    case .quit: nil
    }
  }
}

extension MetronomeStore {
  /// Dispatches what `command` asks for, a tap timed now; `.quit` is the caller's to handle.
  public func perform(_ command: KeyCommand) {
    command.action(tappedAtSeconds: beatClockSeconds).map(dispatch)
  }
}
