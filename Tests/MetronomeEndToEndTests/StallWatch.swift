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

  /// Stops watching; says the longest the watcher woke late.
  func stop() -> StallReport {
    lock.withLock { watching = false }
    stopped.wait()
    return StallReport(longest: lock.withLock { worst })
  }
}

/// What a `StallWatch` saw while it ran.
struct StallReport {
  /// The longest the watcher woke late, in seconds.
  let longest: Double

  /// "the longest stall beside it: 12.0 ms", for a take that failed, whatever the stall.
  var described: String { "the longest stall beside it: \((longest * 10_000).rounded() / 10) ms" }

  /// The harness's glitch, "the machine stalled for 29 ms", when the longest stall passed
  /// `threshold` seconds; none otherwise.
  func glitches(over threshold: Double) -> [String] {
    longest > threshold ? ["the machine stalled for \(Int(longest * 1000)) ms"] : []
  }
}
