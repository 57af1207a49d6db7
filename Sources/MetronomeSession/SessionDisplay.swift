import TerminalUI

/// The interactive display: a `DisplayState` drawn on a terminal, redrawing only what changed.
@MainActor
final class SessionDisplay {
  private let screen: any TerminalScreen
  private let writer: ScreenWriter
  private let colors: Bool
  private var state: DisplayState

  /// A display on `screen` of a session playing to `output`.
  init(screen: any TerminalScreen, colors: Bool, output: String) {
    self.screen = screen
    writer = ScreenWriter { screen.send($0) }
    self.colors = colors
    state = DisplayState(output: output)
  }

  /// Changes the state and redraws if it changed.
  func update(_ change: (inout DisplayState) -> Void) {
    var next = state
    change(&next)
    guard next != state else { return }
    state = next
    redraw()
  }

  /// Draws the whole screen anew, as after a resize.
  func redrawAll() {
    writer.invalidate()
    redraw()
  }

  /// Gives the terminal back as it was.
  func close() { screen.restore() }

  private func redraw() {
    let size = screen.size
    writer.draw(ScreenRenderer(width: size.width, height: size.height, colors: colors).lines(for: state))
  }
}
