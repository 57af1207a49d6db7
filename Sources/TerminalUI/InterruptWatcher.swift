import Dispatch
import Glibc
import MetronomeCore

/// Turns SIGINT, SIGTERM and SIGHUP into a flag the process polls and a handler it sets, so that
/// every way out runs the process's own clean-up instead of dying mid-write.
///
/// It watches from the moment it is made; a signal that comes before the handler is set is handed
/// to it when set.
///
/// `@unchecked Sendable`: the signal received and the handler are read and written under `lock`.
public final class InterruptWatcher: @unchecked Sendable {
  /// What is told of a signal, on a background queue.
  public typealias Handler = @Sendable (Int32) -> Void

  private let lock = Lock()
  private var received: Int32?
  private var handler: Handler?
  private var sources: [any DispatchSourceSignal] = []

  /// Watches `signals` from now on.
  public init(signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]) {
    let queue = DispatchQueue(label: "metronome.signals")
    for number in signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { [weak self] in self?.deliver(number) }
      source.resume()
      sources.append(source)
    }
  }

  /// The first signal received, if any.
  public var receivedSignal: Int32? { lock.withLock { received } }

  /// Calls `handler` for every signal from now on, and at once for one already received.
  public func setHandler(_ handler: @escaping Handler) {
    let pending = lock.withLock {
      self.handler = handler
      return received
    }
    if let pending { handler(pending) }
  }

  /// The signal's name as a shell says it: "SIGINT" (Ctrl-C), "SIGTERM", "SIGHUP"; "signal N"
  /// for another.
  public static func name(of signal: Int32) -> String {
    switch signal {
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    case SIGHUP: "SIGHUP"
    default: "signal \(signal)"
    }
  }

  /// The exit status a shell expects after `signal`: 128 + its number.
  public static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }

  private func deliver(_ number: Int32) {
    let handler = lock.withLock {
      received = received ?? number
      return self.handler
    }
    handler?(number)
  }
}
