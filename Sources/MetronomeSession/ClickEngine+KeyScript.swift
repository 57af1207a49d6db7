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
  ///
  /// Where `leftPaused` is given (a virtual run, which only its script can play on), a last key
  /// that leaves the run paused ends it just after its frame (a beat on that frame still sounds,
  /// as it did before the pause), and `leftPaused` is called: virtual time would otherwise render
  /// silence until the longest run.
  func replay(_ keys: KeyScript, leftPaused: (() -> Void)?) {
    let rate = settings.sampleRate
    for (index, press) in keys.presses.enumerated() {
      guard let command = KeyBindings.command(for: press.key) else { continue }
      let time = AudioTime(seconds: press.seconds)
      let isLast = index == keys.presses.count - 1
      clock.schedule(after: time) { [self] in
        if command == .quit {
          end(atFrame: time.frame(roundingUpAt: rate))
          return
        }
        viewModel.perform(command)
        if let leftPaused, isLast, !viewModel.currentState.isPlaying {
          end(atFrame: time.frame(roundingUpAt: rate) + 1)
          leftPaused()
        }
      }
    }
  }
}
