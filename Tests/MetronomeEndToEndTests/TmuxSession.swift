import Foundation
import XCTest

/// A tmux server of the test's own, running one command in a pane of a fixed size.
///
/// The pane's shell saves the terminal settings (`stty -g`) before and after the command and its
/// exit status, so a test can check the terminal was left as it was found.
final class TmuxSession {
  let directory: URL
  private let socket = "metronome-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  private let tmux: URL

  init(command: String, width: Int = 80, height: Int = 24, environment: [String: String] = [:]) throws {
    guard let tmux = ChildProcess.which("tmux") else { throw XCTSkip("unreachable: scripts/setup installs tmux") }
    self.tmux = tmux
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-tmux-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    // The pane starts from a known environment: `swift test` itself sets NO_COLOR when its
    // output is not a terminal, and the tmux server would pass that on.
    let exports = "unset NO_COLOR; " + environment.map { "export \($0.key)='\($0.value)'; " }.joined()
    // Each file is written under another name and renamed, so a reader never sees it half-written.
    let path = directory.path
    let wrapped =
      "\(exports)stty -g > '\(path)/before.part'; mv '\(path)/before.part' '\(path)/before'; \(command);"
      + " echo $? > '\(path)/status.part'; mv '\(path)/status.part' '\(path)/status';"
      + " stty -g > '\(path)/after.part'; mv '\(path)/after.part' '\(path)/after'"
    // The server this starts keeps whatever output it inherits open: give it none.
    let started = try ChildProcess.run(
      tmux,
      [
        "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "test", "-x", "\(width)", "-y", "\(height)",
        wrapped,
      ],
      captureOutput: false)
    guard started.status == 0 else { throw FixtureError("tmux could not start a session") }
    try tmuxCommand(["set-option", "-t", "test", "remain-on-exit", "on"])
  }

  /// Types keys, in tmux's names (`Up`, `Escape`, `C-c`, `]`).
  func send(_ keys: String...) throws { try tmuxCommand(["send-keys", "-t", "test"] + keys) }

  /// The pane's text now; with `escapes`, including colour sequences.
  func screen(escapes: Bool = false) throws -> String {
    try tmuxCommand(["capture-pane", "-p", "-t", "test"] + (escapes ? ["-e"] : []))
  }

  /// Waits, up to `seconds`, until the screen satisfies `condition`; returns the last screen.
  @discardableResult
  func waitForScreen(seconds: Double = 5, escapes: Bool = false, _ condition: (String) -> Bool) throws -> String {
    let deadline = Date(timeIntervalSinceNow: seconds)
    var text = try screen(escapes: escapes)
    while !condition(text), Date() < deadline {
      usleep(20_000)
      text = try screen(escapes: escapes)
    }
    return text
  }

  func resize(width: Int, height: Int) throws {
    try tmuxCommand(["resize-window", "-t", "test", "-x", "\(width)", "-y", "\(height)"])
  }

  /// The process ids of the pane's shell's children: the command under test.
  func commandProcessIDs() throws -> [Int32] {
    let shell = try tmuxCommand(["display-message", "-p", "-t", "test", "#{pane_pid}"]).trimmingCharacters(
      in: .whitespacesAndNewlines)
    let children = try ChildProcess.run(ChildProcess.which("pgrep")!, ["-P", shell])
    return children.standardOutput.split(separator: "\n").compactMap { Int32($0) }
  }

  /// The command's exit status and whether the terminal settings after it equal those before,
  /// once it has ended (waiting up to `seconds`).
  func outcome(seconds: Double = 5) throws -> (status: Int32, terminalRestored: Bool)? {
    let deadline = Date(timeIntervalSinceNow: seconds)
    let after = directory.appendingPathComponent("after")
    while !FileManager.default.fileExists(atPath: after.path), Date() < deadline { usleep(20_000) }
    guard let status = try? String(contentsOf: directory.appendingPathComponent("status"), encoding: .utf8),
      let before = try? String(contentsOf: directory.appendingPathComponent("before"), encoding: .utf8),
      let afterSettings = try? String(contentsOf: after, encoding: .utf8)
    else { return nil }
    return (Int32(status.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1, before == afterSettings)
  }

  @discardableResult
  private func tmuxCommand(_ arguments: [String]) throws -> String {
    let result = try ChildProcess.run(tmux, ["-L", socket] + arguments)
    guard result.status == 0 else { throw FixtureError("tmux \(arguments.first ?? ""): \(result.standardError)") }
    return result.standardOutput
  }

  deinit {
    _ = try? ChildProcess.run(tmux, ["-L", socket, "kill-server"], captureOutput: false)
    // The server leaves its socket behind: some 300 of them had gathered in /tmp/tmux-UID.
    let sockets = (ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp") + "/tmux-\(getuid())"
    unlink("\(sockets)/\(socket)")
    try? FileManager.default.removeItem(at: directory)
  }
}
