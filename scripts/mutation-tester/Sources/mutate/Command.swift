import Foundation

/// Runs a program and waits for it, with what it printed and how it ended.
///
/// Spawned and reaped here (posix_spawn, waitpid) rather than through Foundation's `Process`,
/// whose termination handler on Linux was seen to miss a child that ended while another ran:
/// the run then waited for ever on a child already dead.
enum Command {
  /// How a run ended.
  struct Result {
    let status: Int32
    let output: String
    /// Whether it was stopped for running past its time.
    let timedOut: Bool
  }

  /// Runs `executable` with `arguments`, and `environment` added to this process's.
  ///
  /// Its output and errors come back together. Past `timeout` seconds it is killed. Throws where
  /// it exits non-zero, unless not `failing`.
  @discardableResult
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double? = nil,
    failing: Bool = true
  ) throws -> Result {
    // The pipe is made close-on-exec before any other run spawns, so that no other child holds
    // its writing end open (which would keep it from ending when this child does).
    spawning.lock()
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else {
      spawning.unlock()
      throw MutationError("cannot make a pipe: \(String(cString: strerror(errno)))")
    }
    let (reading, writing) = (ends[0], ends[1])
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    defer { close(reading) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, writing, 1)
    posix_spawn_file_actions_adddup2(&actions, writing, 2)
    let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
    var pid: pid_t = 0
    let spawned = withCStrings([executable] + arguments) { argv in
      withCStrings(variables) { envp in posix_spawn(&pid, executable, &actions, nil, argv, envp) }
    }
    close(writing)
    spawning.unlock()
    guard spawned == 0 else {
      throw MutationError("cannot run \(executable): \(String(cString: strerror(spawned)))")
    }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let deadline = timeout.map { Date().addingTimeInterval($0) }
    var timedOut = false
    var status: Int32 = 0
    var open = true
    while true {
      // Read what is there (waiting at most 20 ms for it), then see whether the child ended.
      var poller = pollfd(fd: reading, events: Int16(POLLIN), revents: 0)
      if open, poll(&poller, 1, 20) > 0 {
        let count = read(reading, &buffer, buffer.count)
        if count > 0 { output += buffer[0..<count] } else if count == 0 { open = false }
      } else if !open {
        usleep(20_000)
      }
      if waitpid(pid, &status, WNOHANG) == pid { break }
      if let deadline, !timedOut, Date() > deadline {
        timedOut = true
        kill(pid, SIGKILL)
      }
    }
    // What it wrote just before it ended; a child of its own holding the pipe is not waited for.
    _ = fcntl(reading, F_SETFL, O_NONBLOCK)
    while open {
      let count = read(reading, &buffer, buffer.count)
      if count > 0 { output += buffer[0..<count] } else { open = false }
    }
    let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    let result = Result(status: exitStatus, output: String(decoding: output, as: UTF8.self), timedOut: timedOut)
    if failing, result.status != 0 {
      throw MutationError("\(executable) \(arguments.joined(separator: " ")) failed:\n\(result.output.suffix(2_000))")
    }
    return result
  }

  /// Held from making a run's pipe to spawning it.
  private static let spawning = NSLock()

  /// Calls `body` with `strings` as a C array of C strings, ended by a null pointer.
  private static func withCStrings<Value>(
    _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Value
  ) -> Value {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
  }
}
