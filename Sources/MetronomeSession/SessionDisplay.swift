import MetronomeAudio
import MetronomeEngine
import MetronomeViewModel
import OpenCombine
import TerminalUI

/// The interactive display: a `DisplayState` drawn on a terminal in a style, redrawing only what
/// changed; for a screen reader, the lines that tell what changed instead.
@MainActor
final class SessionDisplay {
  private let screen: any TerminalScreen
  private let writer: ScreenWriter
  private let colors: Bool
  private let style: DisplayStyle
  /// Runs an action on the main queue once what is being done now is done.
  private let later: (@escaping @MainActor () -> Void) -> Void
  private var state: DisplayState
  /// The state the plain style last told, and whether a change waits to be told.
  private var told: DisplayState?
  private var isTelling = false
  /// Which beats flash the big display.
  private var flashes = ScreenFlashes()

  /// A display on `screen` of a session playing to `output`; `later` runs an action on the main
  /// queue after the ones already due, so that the plain style tells changes made together as one.
  init(
    screen: any TerminalScreen, colors: Bool, style: DisplayStyle, output: String,
    later: @escaping (@escaping @MainActor () -> Void) -> Void
  ) {
    self.screen = screen
    writer = ScreenWriter { screen.send($0) }
    self.colors = colors
    self.style = style
    self.later = later
    state = DisplayState(output: output)
  }

  /// Shows each of `viewModel`'s outputs as it changes, on `mainQueue`; returns the subscriptions,
  /// which last as long as they are kept.
  ///
  /// The songs are named as `place` names them; a pause also clears the lit beat and the flash, as
  /// nothing is heard while paused.
  func bind<MainQueue: Scheduler & Sendable>(
    to viewModel: MetronomeViewModel, in place: ProgrammePlace, on mainQueue: MainQueue
  ) -> [AnyCancellable] where MainQueue.SchedulerTimeType == AudioTime {
    func show<Value>(_ output: AnyPublisher<Value, Never>, in field: WritableKeyPath<DisplayState, Value>)
      -> AnyCancellable
    {
      output.receive(on: mainQueue).sink { [weak self] value in
        MainActor.assumeIsolated {
          self?.update {
            $0[keyPath: field] = value
            if !$0.isPlaying { ($0.heard, $0.isFlashing) = (nil, false) }
          }
        }
      }
    }
    return [
      show(viewModel.tempoText, in: \.tempoText),
      show(viewModel.signatureText, in: \.signature),
      show(viewModel.numeratorValue, in: \.beatsPerBar),
      show(viewModel.pattern.map(\.levels).eraseToAnyPublisher(), in: \.pattern),
      show(viewModel.subdivision, in: \.subdivision),
      show(viewModel.isMuted, in: \.isMuted),
      show(viewModel.polyrhythm, in: \.polyrhythm),
      show(viewModel.isPlaying, in: \.isPlaying),
      show(viewModel.isLooping, in: \.isLooping),
      show(Self.titles(of: viewModel.song, in: place), in: \.song),
    ]
  }

  /// Each song's title as `place` names it.
  ///
  /// Nonisolated: the titles are made on the thread that changes the song, the render thread too.
  private nonisolated static func titles(
    of song: AnyPublisher<Int?, Never>, in place: ProgrammePlace
  ) -> AnyPublisher<String?, Never> {
    song.map { place.song($0) }.eraseToAnyPublisher()
  }

  /// Changes the state and redraws if it changed.
  func update(_ change: (inout DisplayState) -> Void) {
    var next = state
    change(&next)
    guard next != state else { return }
    state = next
    redraw()
  }

  /// How long the big display flashes for a beat at `seconds` on the audio clock, `beatSpacing`
  /// seconds after the one before; nil for no flash (another style, a beat that does not sound, too soon).
  func flash(at seconds: Double, beatSpacing: Double, beatInBar: Int, sounds: Bool) -> Double? {
    guard style == .big else { return nil }
    return flashes.flash(at: seconds, beatSpacing: beatSpacing, beatInBar: beatInBar, sounds: sounds)
  }

  /// Shows `player`'s latency and underruns, and what `sync` says of the sync.
  func showStatus(of player: LivePlayer, sync: String?) {
    update {
      $0.latencyMilliseconds = player.latencySeconds * 1000
      $0.underruns = player.underrunCount
      $0.sync = sync
    }
  }

  /// Draws the whole screen anew, as after a resize.
  func redrawAll() {
    writer.invalidate()
    redraw()
  }

  /// Tells what is left to tell and gives the terminal back as it was.
  func close() {
    if isTelling { tell() }
    screen.restore()
  }

  private func redraw() {
    let size = screen.size
    switch style {
    case .standard:
      writer.draw(ScreenRenderer(width: size.width, height: size.height, colors: colors).lines(for: state))
    case .big:
      writer.draw(ScreenRenderer(width: size.width, height: size.height, colors: colors).bigLines(for: state))
    case .plain:
      guard !isTelling else { return }
      isTelling = true
      later { [weak self] in self?.tell() }
    }
  }

  /// Prints a line for each thing that changed since the last told.
  private func tell() {
    guard isTelling else { return }
    isTelling = false
    for line in PlainNarration.lines(from: told, to: state) { screen.send(line + "\n") }
    told = state
  }
}
