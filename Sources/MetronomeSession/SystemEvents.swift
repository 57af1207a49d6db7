import Dispatch
import Glibc
import MetronomeControl
import OpenCombine
import TerminalUI

/// Delivers the process's events to a session as `SessionInput`s on its main queue, which runs
/// on the main thread: one source of control among those the session takes.
///
/// The events are the keys typed on standard input, as commands, and its end (when the session
/// reads keys), SIGWINCH, and the signals an `InterruptWatcher` caught; their sources wait on a
/// queue of their own.
@MainActor
public final class SystemEvents {
  private var sources: [any DispatchSourceProtocol] = []

  /// Delivers events to `session` on `mainQueue` from now on, for as long as the process runs;
  /// `interrupts` should have been watching since before the terminal was touched, so that no
  /// signal is lost.
  public init<MainQueue: Scheduler & Sendable>(
    session target: any SessionInputReceiver, interrupts: InterruptWatcher, readsKeys: Bool, mainQueue: MainQueue
  ) {
    interrupts.setHandler { signal in
      mainQueue.schedule { MainActor.assumeIsolated { target.receive(.interrupted(signal: signal)) } }
    }
    guard readsKeys else { return }
    sources = Self.keySources(for: target, on: mainQueue)
  }

  /// The sources of typed bytes, the end of input and SIGWINCH, started.
  ///
  /// Nonisolated, so that their handlers, which run on the sources' own queue, are too: they only
  /// hand what happened to the main queue.
  private nonisolated static func keySources<MainQueue: Scheduler & Sendable>(
    for target: any SessionInputReceiver, on mainQueue: MainQueue
  ) -> [any DispatchSourceProtocol] {
    let events = DispatchQueue(label: "metronome.events")
    let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: events)
    input.setEventHandler {
      var bytes = [UInt8](repeating: 0, count: 64)
      let count = read(STDIN_FILENO, &bytes, bytes.count)
      guard count > 0 else {
        // End of input (or an error): stop reading instead of spinning on it.
        input.cancel()
        mainQueue.schedule { MainActor.assumeIsolated { target.receive(.inputClosed) } }
        return
      }
      let typed = SessionInput.typed(Array(bytes[..<count]))
      mainQueue.schedule { MainActor.assumeIsolated { typed.forEach(target.receive) } }
    }
    signal(SIGWINCH, SIG_IGN)
    let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: events)
    resize.setEventHandler { mainQueue.schedule { MainActor.assumeIsolated { target.receive(.resized) } } }
    let sources: [any DispatchSourceProtocol] = [input, resize]
    for source in sources { source.resume() }
    return sources
  }
}
