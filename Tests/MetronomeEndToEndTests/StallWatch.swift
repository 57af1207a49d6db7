import Foundation
import MetronomeAudio

/// Watches the machine for stalls while a live take runs: two threads of the test's own ask to
/// sleep 2 ms at a time and record how late they woke.
///
/// A stall of tens of milliseconds means the machine held every process at once (a busy host
/// under the virtual machine), which no buffer a sound server gives its clients is sized for: the
/// harness's trouble, to tell apart from underruns the metronome caused itself. One watcher runs
/// at the metronome's own real-time priority where the system allows it, so that ordinary work
/// keeping the machine busy (a build beside the tests) is not taken for a stall: only what would
/// also have held the metronome's audio thread is. The other runs at the lower priority of the
/// metronome's main thread, which prints the lines: what held it would have held those lines too,
/// and only a line later than that is the metronome's.
final class StallWatch: @unchecked Sendable {
  private let lock = NSLock()
  private var watching = true
  private var worst = 0.0
  private var worstShowing = 0.0
  private let stopped = DispatchSemaphore(value: 0)

  /// Starts watching at once.
  init() {
    Thread { [self] in
      RealtimePriority.whileRaised { watch { worst = max(worst, $0) } }
      stopped.signal()
    }.start()
    Thread { [self] in
      RealtimePriority.raiseToShowTheBeats()
      watch { worstShowing = max(worstShowing, $0) }
      stopped.signal()
    }.start()
  }

  /// Sleeps 2 ms at a time until stopped, giving `record` how late each wake-up was, in seconds,
  /// while holding the lock.
  private func watch(_ record: (Double) -> Void) {
    var last = DispatchTime.now().uptimeNanoseconds
    while lock.withLock({ watching }) {
      usleep(2_000)
      let now = DispatchTime.now().uptimeNanoseconds
      let late = Double(now - last) / 1e9 - 0.002
      last = now
      lock.withLock { record(late) }
    }
  }

  /// Stops watching; says the longest each watcher woke late.
  func stop() -> StallReport {
    lock.withLock { watching = false }
    stopped.wait()
    stopped.wait()
    return lock.withLock { StallReport(longest: worst, longestShowing: worstShowing) }
  }
}

/// What a `StallWatch` saw while it ran.
struct StallReport {
  /// The longest the real-time watcher woke late, in seconds.
  let longest: Double
  /// The longest the watcher at the priority that shows the beats woke late, in seconds.
  var longestShowing = 0.0

  /// "the longest stall beside it: 12.0 ms (where the beats are shown 30.0 ms)", for a take that
  /// failed, whatever the stall.
  var described: String {
    "the longest stall beside it: \(Self.milliseconds(longest)) ms"
      + " (where the beats are shown \(Self.milliseconds(longestShowing)) ms)"
  }

  /// The harness's glitch, "the machine stalled for 29 ms", when the longest stall passed
  /// `threshold` seconds; none otherwise.
  func glitches(over threshold: Double) -> [String] {
    longest > threshold ? ["the machine stalled for \(Int(longest * 1000)) ms"] : []
  }

  /// The harness's glitch for a line `late` seconds later than it may be by `allowed`: "the thread
  /// that shows the beats would have been held for 52 ms", when the watcher at that priority was
  /// held for at least the part of `late` beyond half of `allowed` (which a line's way to the test
  /// takes well within when nothing holds it); none when the line was on time, or later than the
  /// hold explains.
  func lineHeld(late: Double, allowed: Double) -> [String] {
    late >= allowed && longestShowing >= late - allowed / 2
      ? ["the thread that shows the beats would have been held for \(Int(longestShowing * 1000)) ms"] : []
  }

  /// `seconds` in milliseconds to a tenth.
  private static func milliseconds(_ seconds: Double) -> Double { (seconds * 10_000).rounded() / 10 }
}
