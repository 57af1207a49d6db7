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

  /// Whether a terminal is written to (not a file or a pipe).
  public var isTerminal: Bool { isatty(descriptor) == 1 }

  /// Writes all of `text`, resuming after short or interrupted writes; returns false, having
  /// stopped, when the output is gone (a pipe whose reader has ended).
  @discardableResult
  public func write(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return true }
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return false }
        offset += written
      }
      return true
    }
  }
}
