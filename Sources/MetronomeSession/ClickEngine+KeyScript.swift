import MetronomeAudio
import MetronomeControl
import MetronomeEngine
import TerminalUI

extension ClickEngine {
  /// Replays `keys` on the audio clock, so a press lands on the same frame in every mode: a quit
  /// ends the run on its frame, the other keys go to the view model there.
  ///
  /// A script's keys do not come through the session's input, as typed keys do: that waits for
  /// the main queue, whose turn comes a period or more after the frame the key was written for.
  /// They reach the same state machine through the store the session's commands go to.
  func replay(_ keys: KeyScript) {
    let rate = settings.sampleRate
    for press in keys.presses {
      guard let command = KeyBindings.command(for: press.key) else { continue }
      let time = AudioTime(seconds: press.seconds)
      clock.schedule(after: time) { [self] in
        if command == .quit {
          end(atFrame: time.frame(roundingUpAt: rate))
        } else {
          viewModel.perform(command)
        }
      }
    }
  }
}
