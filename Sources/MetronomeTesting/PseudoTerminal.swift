import Glibc

/// A pseudo-terminal, as a program run in a terminal window has: what the program writes to
/// `terminal` is read back from the other side, and `isatty` says yes to it.
public final class PseudoTerminal {
  /// The side the program is given: its standard output or error.
  public let terminal: Int32
  /// The side the terminal window reads.
  private let window: Int32

  /// Opens a new pseudo-terminal; throws where the system has none to give.
  public init() throws(PseudoTerminalError) {
    // posix_openpt and its kin are hidden from Swift's Glibc, and the ioctls they use are macros
    // Swift cannot read: Linux's TIOCSPTLCK (unlock) and TIOCGPTN (its number), as
    // asm-generic/ioctls.h defines them, the same on every architecture we build for.
    window = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    var locked: CInt = 0
    var number: CInt = 0
    guard window >= 0, ioctl(window, 0x4004_5431, &locked) == 0, ioctl(window, 0x8004_5430, &number) == 0
    else {
      if window >= 0 { close(window) }
      throw PseudoTerminalError()
    }
    terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    guard terminal >= 0 else {
      close(window)
      throw PseudoTerminalError()
    }
  }

  deinit {
    close(terminal)
    close(window)
  }

  /// What the window has shown, read until it ends with `last` or nothing more comes within
  /// `seconds` (a failing test's guard, not a wait: the text is there when `last` is).
  public func read(through last: String, seconds: Double = 5) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while !String(decoding: bytes, as: UTF8.self).hasSuffix(last) {
      var ready = pollfd(fd: window, events: Int16(POLLIN), revents: 0)
      guard poll(&ready, 1, Int32(seconds * 1_000)) == 1 else { break }
      let count = Glibc.read(window, &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// The system gave no pseudo-terminal.
public struct PseudoTerminalError: Error {}
