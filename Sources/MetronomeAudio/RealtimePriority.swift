import Glibc

/// Real-time scheduling for the threads that feed the sound device, where the system allows it.
///
/// Root may, and so may a user whose `rtprio` limit permits it, as audio groups often do; a busy
/// machine then cannot keep those threads from writing in time. Where it is not allowed, nothing
/// changes.
public enum RealtimePriority {
  /// The `SCHED_FIFO` priority asked for: above every ordinary thread, below the sound servers'
  /// own audio threads (JACK's and PipeWire's run at 70 to 88).
  static let priority: Int32 = 10

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
}
