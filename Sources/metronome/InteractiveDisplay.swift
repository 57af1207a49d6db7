import Dispatch
import FoundationEssentials
import Glibc
import MetronomeCore
import MetronomeViewModel
import OpenCombine
import OpenCombineDispatch
import TerminalUI

/// The interactive display: draws the screen from the view model's settings and the beats as
/// they are heard, reads keys from the terminal, follows resizes. Lives on the main actor.
@MainActor
final class InteractiveDisplay {
  private let session: TerminalSession
  private let writer: ScreenWriter
  private let colors: Bool
  private var state: DisplayState
  private var subscriptions: [AnyCancellable] = []
  private var sources: [any DispatchSourceProtocol] = []
  private let decoder = KeyDecoder()

  /// Takes over the terminal; `onKey` receives each bound key's command, `onInputClosed` the end of input.
  init(
    viewModel: MetronomeViewModel, output: String, onKey: @escaping @MainActor (KeyCommand) -> Void,
    onInputClosed: @escaping @MainActor () -> Void
  ) throws {
    session = try TerminalSession()
    let session = self.session
    writer = ScreenWriter { session.send($0) }
    let environment = ProcessInfo.processInfo.environment
    colors = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    let current = viewModel.currentState
    state = DisplayState(
      tempoText: current.tempo.text, meter: current.meter, isPlaying: current.isPlaying, output: output)
    subscriptions.append(
      viewModel.settings.receive(on: DispatchQueue.main).sink { [weak self] settings in
        MainActor.assumeIsolated {
          self?.update {
            $0.tempoText = settings.tempo.text
            $0.meter = settings.meter
            $0.isPlaying = settings.isPlaying
            if !settings.isPlaying { $0.heard = nil }
          }
        }
      })
    let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
    input.setEventHandler { [weak self] in
      var bytes = [UInt8](repeating: 0, count: 64)
      let count = read(STDIN_FILENO, &bytes, bytes.count)
      guard count > 0 else {
        // End of input (or an error): stop reading instead of spinning on it.
        input.cancel()
        onInputClosed()
        return
      }
      for key in self?.decoder.decode(Array(bytes[..<count])) ?? [] {
        if let command = KeyBindings.command(for: key) { onKey(command) }
      }
    }
    signal(SIGWINCH, SIG_IGN)
    let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
    resize.setEventHandler { [weak self] in
      self?.writer.invalidate()
      self?.redraw()
    }
    for source in [input, resize] as [any DispatchSourceProtocol] {
      source.resume()
      sources.append(source)
    }
    redraw()
  }

  /// Lights the beat just heard.
  func heard(_ beat: Beat) {
    update { $0.heard = DisplayState.HeardBeat(bar: beat.bar, beat: beat.beatInBar, isAccent: beat.isAccent) }
  }

  /// Shows the output's latency and underruns.
  func status(latencyMilliseconds: Double, underruns: Int) {
    update {
      $0.latencyMilliseconds = latencyMilliseconds
      $0.underruns = underruns
    }
  }

  /// Gives the terminal back exactly as it was.
  func close() {
    for source in sources { source.cancel() }
    subscriptions.removeAll()
    session.restore()
  }

  private func update(_ change: (inout DisplayState) -> Void) {
    var next = state
    change(&next)
    guard next != state else { return }
    state = next
    redraw()
  }

  private func redraw() {
    let size = session.size
    writer.draw(ScreenRenderer(width: size.width, height: size.height, colors: colors).lines(for: state))
  }
}
