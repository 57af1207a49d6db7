import Glibc

/// Writes text straight to a file descriptor, unbuffered, so each line reaches a pipe or the
/// terminal the moment it is written.
public struct TextOutput: Sendable {
  /// The descriptor written to.
  public let descriptor: Int32

  /// Standard output.
  public static let standardOutput = TextOutput(descriptor: STDOUT_FILENO)
  /// Standard error.
  public static let standardError = TextOutput(descriptor: STDERR_FILENO)

  /// Output to `descriptor`.
  public init(descriptor: Int32) { self.descriptor = descriptor }

  /// Writes all of `text`, resuming after short or interrupted writes; stops if the reader is gone.
  public func write(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return }
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
      }
    }
  }
}
