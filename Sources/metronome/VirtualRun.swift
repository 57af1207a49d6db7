import MetronomeEngine
import MetronomeViewModel
import TerminalUI

/// A headless run in virtual time: the engine's clock is advanced as fast as it goes, with no
/// audio; key presses are replayed at their times on that clock.
struct VirtualRun {
  let engine: ClickEngine
  let keys: KeyScript
  let format: BeatEventFormat

  func run() {
    var quitAt: Int64?
    let rate = engine.settings.sampleRate
    for press in keys.presses {
      guard let command = KeyBindings.command(for: press.key) else { continue }
      let time = AudioTime(seconds: press.seconds)
      engine.clock.schedule(after: time) {
        if command == .quit {
          quitAt = quitAt ?? time.frame(roundingUpAt: rate)
        } else {
          engine.viewModel.perform(command)
        }
      }
    }
    let printing = engine.beats.sink { beat in
      guard quitAt.map({ beat.frame < $0 }) ?? true else { return }
      print(format.line(for: beat))
    }
    defer { printing.cancel() }
    let step = rate.hz / 10
    while !engine.isFinished, quitAt.map({ engine.renderer.cursor < $0 }) ?? true {
      engine.renderer.skip(frames: step)
    }
  }
}
