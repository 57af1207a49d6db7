import Glibc

/// The system's monotonic clock, which device positions and the ALSA sequencer's timing are read
/// against.
public enum MonotonicClock {
  /// Nanoseconds since an arbitrary moment (the machine's boot).
  public static var nanoseconds: Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
  }
}
