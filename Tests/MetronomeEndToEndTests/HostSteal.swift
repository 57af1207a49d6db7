import Foundation

/// The processor time the host takes from this virtual machine while a take runs: the kernel's
/// steal time, in which no process of the machine ran at all.
///
/// Where the suite was measured, each stall of the machine over 12 ms came with 30 to 40 ms of
/// steal in the same tenth of a second, and each stall a loaded run's takes reported with 40 to
/// 270 ms of it (scripts/MEASUREMENTS.md): a glitch with steal beside it is the host's, and one
/// without is worth a closer look.
///
/// A take the host took more than 200 ms from is the harness's, whatever else it saw: quiet takes
/// had up to 70 ms of steal, the fresh clone's failures of ours none, and one loaded take of
/// PulseAudio's that the host took 650 ms from, with no stall over 9 ms seen, heard its clicks
/// 255 frames late before anything was held.
struct HostSteal {
  private let start = HostSteal.seconds()

  /// The processor time the host took since this was made, in ms; nil where the kernel does not
  /// count it.
  var milliseconds: Int? {
    guard let start, let now = Self.seconds() else { return nil }
    return Int(((now - start) * 1000).rounded())
  }

  /// "the host took 150 ms of processor time" since this was made; none where the kernel does not
  /// count it.
  var meanwhile: [String] { milliseconds.map { ["the host took \($0) ms of processor time"] } ?? [] }

  /// Whether a take the host took `milliseconds` from may still say something of metronome.
  static func aTakeBears(milliseconds: Int) -> Bool { milliseconds <= 200 }

  /// The processor time the host has taken from this machine since it booted, in seconds.
  ///
  /// All processors together: the eighth figure of `/proc/stat`'s `cpu` line, in clock ticks.
  /// Nil where the kernel does not count it.
  static func seconds(
    procStat: String? = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
    ticksPerSecond: Int = sysconf(Int32(_SC_CLK_TCK))
  ) -> Double? {
    guard let line = procStat?.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
    let fields = line.split(separator: " ")
    guard fields.count > 8, let ticks = Double(fields[8]), ticksPerSecond > 0 else { return nil }
    return ticks / Double(ticksPerSecond)
  }
}
