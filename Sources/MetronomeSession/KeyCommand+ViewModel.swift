import MetronomeViewModel
import TerminalUI

extension MetronomeViewModel {
  /// Sends what a key asks for to the view model's inputs; `.quit` is the caller's to handle.
  func perform(_ command: KeyCommand) {
    switch command {
    case .togglePlaying: tappedPlayPause.send(())
    case .tapTempo: tappedTempo.send(())
    case .nudgeTempo(let delta): actions.send(.nudgeTempo(by: delta))
    case .scaleTempo(let factor): actions.send(.scaleTempo(by: factor))
    case .stepNumerator(let delta): actions.send(.stepNumerator(by: delta))
    case .stepDenominator(let delta): actions.send(.stepDenominator(by: delta))
    case .cycleLevel(let beat): actions.send(.cycleLevel(ofBeat: beat))
    case .stepSubdivision(let delta): actions.send(.stepSubdivision(by: delta))
    case .stepSwing(let delta): actions.send(.stepSwing(by: delta))
    case .toggleMute: actions.send(.toggleMute)
    case .togglePolyrhythmMute: actions.send(.togglePolyrhythmMute)
    case .jumpSection(let offset): actions.send(.jumpSection(by: offset))
    case .toggleSectionLoop: actions.send(.toggleSectionLoop)
    case .moveSong(let offset): actions.send(.moveSong(by: offset))
    case .reset: actions.send(.reset)
    case .quit: break
    }
  }
}
