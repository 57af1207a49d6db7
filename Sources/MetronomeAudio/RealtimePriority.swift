import Glibc

/// Real-time scheduling for the threads that feed the sound device, and below them for the one
/// that shows the beats, where the system allows it.
///
/// Root may, and so may a user whose `rtprio` limit permits it, as audio groups often do; a busy
/// machine then cannot keep those threads from writing in time, nor a beat's line or light from
/// coming when its click is heard. Where it is not allowed, nothing changes.
public enum RealtimePriority {
  /// The `SCHED_FIFO` priority asked for the audio: above every ordinary thread, below the sound
  /// servers' own audio threads (JACK's and PipeWire's run at 70 to 88).
  public static let priority: Int32 = 10
  /// The `SCHED_FIFO` priority of the thread that shows the beats: above every ordinary thread, so
  /// that busy processes cannot hold a beat's line back (at normal priority, beside the test suite
  /// and two busy loops, lines came up to 266 ms late: MEASUREMENTS), and below the audio's.
  public static let showingPriority: Int32 = 1
  /// Linux's `SCHED_RESET_ON_FORK`, which Glibc's module does not carry (`<sched.h>` has it only
  /// with `_GNU_SOURCE`).
  private static let resetOnFork: Int32 = 0x4000_0000

  /// Runs `body` with the calling thread at real-time priority, then gives the thread its own back.
  ///
  /// Threads that `body` starts keep the priority: the client thread that ALSA's PulseAudio plugin
  /// starts when the device is opened, which carries every write to the server.
  public static func whileRaised<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
    -> Result
  {
    let thread = pthread_self()
    var policy: Int32 = 0
    var previous = sched_param()
    guard pthread_getschedparam(thread, &policy, &previous) == 0 else { return try body() }
    var raised = sched_param(sched_priority: priority)
    let isRaised = pthread_setschedparam(thread, SCHED_FIFO, &raised) == 0
    defer { if isRaised { pthread_setschedparam(thread, policy, &previous) } }
    return try body()
  }

  /// Raises the calling thread for good to `showingPriority`, where the system allows it.
  ///
  /// Reset on fork: a thread or process it starts from then on starts at normal priority, so that
  /// nothing else is raised with it.
  public static func raiseToShowTheBeats() {
    var raised = sched_param(sched_priority: showingPriority)
    _ = pthread_setschedparam(pthread_self(), SCHED_FIFO | resetOnFork, &raised)
  }
}
