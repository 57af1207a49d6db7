import Foundation
import MetronomeAudio

/// Watches the machine for stalls while a live take runs: a thread of the test's own asks to
/// sleep 2 ms at a time and records how late it woke.
///
/// A stall of tens of milliseconds means the machine held every process at once (a busy host
/// under the virtual machine), which no buffer a sound server gives its clients is sized for: the
/// harness's trouble, to tell apart from underruns the metronome caused itself. The watcher runs
/// at the metronome's own real-time priority where the system allows it, so that ordinary work
/// keeping the machine busy (a build beside the tests) is not taken for a stall: only what would
/// also have held the metronome's audio thread is.
final class StallWatch: @unchecked Sendable {
  private let lock = NSLock()
  private var watching = true
  private var worst = 0.0
  private let stopped = DispatchSemaphore(value: 0)

  /// Starts watching at once.
  init() {
    Thread { [self] in
      RealtimePriority.whileRaised {
        var last = DispatchTime.now().uptimeNanoseconds
        while lock.withLock({ watching }) {
          usleep(2_000)
          let now = DispatchTime.now().uptimeNanoseconds
          let late = Double(now - last) / 1e9 - 0.002
          last = now
          lock.withLock { worst = max(worst, late) }
        }
      }
      stopped.signal()
    }.start()
  }

  /// Stops watching; returns the longest the watcher woke late, in seconds.
  func stop() -> Double {
    lock.withLock { watching = false }
    stopped.wait()
    return lock.withLock { worst }
  }
}
