import Dispatch
import Glibc
import TerminalUI

/// Delivers the process's events to a session on the main queue: the bytes typed on standard
/// input and its end (when the session reads keys), SIGWINCH, and the signals an
/// `InterruptWatcher` caught.
@MainActor
public final class SystemEvents {
  private var sources: [any DispatchSourceProtocol] = []

  /// Delivers events to `session` from now on, for as long as the program runs; `interrupts`
  /// should have been watching since before the terminal was touched, so that no signal is lost.
  public init(session target: any SessionEvents, interrupts: InterruptWatcher, readsKeys: Bool) {
    interrupts.setHandler { signal in
      DispatchQueue.main.async { MainActor.assumeIsolated { target.interrupted(by: signal) } }
    }
    guard readsKeys else { return }
    let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
    input.setEventHandler {
      var bytes = [UInt8](repeating: 0, count: 64)
      let count = read(STDIN_FILENO, &bytes, bytes.count)
      MainActor.assumeIsolated {
        guard count > 0 else {
          // End of input (or an error): stop reading instead of spinning on it.
          input.cancel()
          target.inputClosed()
          return
        }
        target.receive(Array(bytes[..<count]))
      }
    }
    signal(SIGWINCH, SIG_IGN)
    let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
    resize.setEventHandler { MainActor.assumeIsolated { target.resized() } }
    for source in [input, resize] as [any DispatchSourceProtocol] {
      source.resume()
      sources.append(source)
    }
  }
}
