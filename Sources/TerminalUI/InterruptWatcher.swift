import Dispatch
import Glibc
import MetronomeCore

/// Turns SIGINT, SIGTERM and SIGHUP into a flag the program polls and a callback on a queue, so
/// that every way out runs the program's own clean-up instead of dying mid-write.
public final class InterruptWatcher: @unchecked Sendable {
  private let lock = Lock()
  private var received: Int32?
  private var sources: [any DispatchSourceSignal] = []

  /// Watches the given signals from now on; `onSignal` runs on a background queue for each.
  public init(signals: [Int32] = [SIGINT, SIGTERM, SIGHUP], onSignal: @escaping @Sendable (Int32) -> Void = { _ in }) {
    let queue = DispatchQueue(label: "metronome.signals")
    for number in signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { [weak self] in
        self?.lock.withLock { self?.received = self?.received ?? number }
        onSignal(number)
      }
      source.resume()
      sources.append(source)
    }
  }

  /// The first signal received, if any.
  public var receivedSignal: Int32? { lock.withLock { received } }

  /// The exit status a shell expects after `signal`: 128 + its number.
  public static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }
}
