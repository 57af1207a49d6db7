import Glibc

/// The name the kernel shows for a thread, so that `top -H`, a debugger or a test can tell
/// metronome's threads from a sound server's and Dispatch's.
public enum ThreadName {
  /// Names the calling thread `name`, of which the kernel keeps 15 bytes.
  ///
  /// Glibc's `pthread_setname_np` is not visible to Swift; the kernel's own file for it is.
  public static func set(_ name: String) {
    let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard file >= 0 else { return }
    _ = name.utf8CString.withUnsafeBufferPointer { write(file, $0.baseAddress, $0.count - 1) }
    close(file)
  }
}
