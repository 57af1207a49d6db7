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
///
/// The report also says how much processor time the host took from this virtual machine
/// meanwhile (the kernel's steal time): where the suite was measured, each stall over 12 ms came
/// with 30 to 40 ms of it in the same tenth of a second (scripts/MEASUREMENTS.md), so a stall with
/// steal beside it is the host's, and one without is worth a closer look.
final class StallWatch: @unchecked Sendable {
  private let lock = NSLock()
  private var watching = true
  private var worst = 0.0
  private let stopped = DispatchSemaphore(value: 0)
  private let stolenAtStart = StallWatch.stolenSeconds()

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

  /// Stops watching; says the longest the watcher woke late and what the host took meanwhile.
  func stop() -> StallReport {
    lock.withLock { watching = false }
    stopped.wait()
    let stolen = stolenAtStart.flatMap { start in Self.stolenSeconds().map { $0 - start } }
    return StallReport(longest: lock.withLock { worst }, stolen: stolen)
  }

  /// The processor time the host has taken from this machine since it booted, in seconds.
  ///
  /// All processors together: the eighth figure of `/proc/stat`'s `cpu` line, in clock ticks.
  /// Nil where the kernel does not count it.
  static func stolenSeconds(
    procStat: String? = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
    ticksPerSecond: Int = sysconf(Int32(_SC_CLK_TCK))
  ) -> Double? {
    guard let line = procStat?.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
    let fields = line.split(separator: " ")
    guard fields.count > 8, let ticks = Double(fields[8]), ticksPerSecond > 0 else { return nil }
    return ticks / Double(ticksPerSecond)
  }
}

/// What a `StallWatch` saw while it ran.
struct StallReport {
  /// The longest the watcher woke late, in seconds.
  let longest: Double
  /// The processor time the host took from this machine meanwhile, in seconds; nil where the
  /// kernel does not count it.
  let stolen: Double?

  /// "the longest stall beside it: 12.0 ms (the host took 30 ms of processor time)", for a take
  /// that failed, whatever the stall.
  var described: String {
    "the longest stall beside it: \((longest * 10_000).rounded() / 10) ms\(tookAside)"
  }

  /// The harness's glitch, "the machine stalled for 29 ms (the host took 40 ms of processor
  /// time)", when the longest stall passed `threshold` seconds; none otherwise.
  func glitches(over threshold: Double) -> [String] {
    longest > threshold ? ["the machine stalled for \(Int(longest * 1000)) ms\(tookAside)"] : []
  }

  private var tookAside: String {
    stolen.map { " (the host took \(Int(($0 * 1000).rounded())) ms of processor time)" } ?? ""
  }
}
