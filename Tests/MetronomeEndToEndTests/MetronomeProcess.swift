import Foundation
import MetronomeAudio

/// Runs a program to completion and collects what it printed.
struct ProcessResult {
  let status: Int32
  /// Whether a signal ended it (then `status` is the signal's number).
  var signaled = false
  let standardOutput: String
  let standardError: String
}

enum MetronomeProcess {
  /// The checkout the tests are built from: its scripts, man pages and sources.
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The `metronome` binary under test: the variant with Ableton Link where
  /// `METRONOME_LINK_BINARY` names one, else the build `METRONOME_BINARY` names, else the one
  /// built beside this test bundle.
  static var binary: URL { linkVariant ?? named ?? besideTheTests }

  /// The build beside this test bundle: the debug build, where the tests were built by `swift build`.
  static var besideTheTests: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("metronome")
  }

  /// A debug build of what is under test: the variant with Ableton Link (`scripts/test` builds it
  /// so), else the build beside this test bundle.
  static var debugBuild: URL { linkVariant ?? besideTheTests }

  /// The build `scripts/test` names: the shipped one, which starts in a twentieth of the debug
  /// build's processor time (0.03 s against 0.6 s for a mistyped option), most of which goes to
  /// the argument parser checking its own declarations, as only its debug build does.
  private static let named = ProcessInfo.processInfo.environment["METRONOME_BINARY"].map {
    URL(fileURLWithPath: $0)
  }

  /// The variant with Ableton Link that `scripts/test` builds apart, the executable alone (the
  /// tests of what differs in it are the same code as the default build's, run against it).
  private static let linkVariant = ProcessInfo.processInfo.environment["METRONOME_LINK_BINARY"].map {
    URL(fileURLWithPath: $0)
  }

  /// Whether the binary under test was built with Ableton Link: the variant named, or the one
  /// beside a test bundle built with the trait.
  static var holdsLink: Bool {
    #if AbletonLink
    true
    #else
    linkVariant != nil
    #endif
  }

  /// The metronome as it ships, built as `scripts/install` builds it (release, Swift's libraries
  /// linked in) in a scratch folder of its own, since `swift test` holds the default one; built
  /// once for all the tests of a run that ask for it.
  ///
  /// A run of it takes a twenty-fifth of the debug build's time (0.01 s against 0.25 s for a
  /// virtual bar), and it checks what the debug build checks: overflow, bounds and preconditions
  /// (the sources use no `assert`). Where `scripts/test` names it (`METRONOME_BINARY`), it is not
  /// asked of SwiftPM again: a build with nothing to do took 1.7 s of each test process that asks.
  static func shipped() throws -> URL { try named ?? shippedBuild.get() }

  private static let shippedBuild = Result { () throws -> URL in
    let scratch = repository.appendingPathComponent(".build/shipped")
    guard let swift = ChildProcess.which("swift") else { throw FixtureError("swift is not on PATH") }
    let built = try ChildProcess.run(
      swift,
      [
        "build", "-c", "release", "--static-swift-stdlib", "--product", "metronome", "--package-path", repository.path,
        "--scratch-path", scratch.path,
      ])
    guard built.status == 0 else { throw FixtureError("the shipped build failed: \(built.standardError)") }
    return scratch.appendingPathComponent("release/metronome")
  }

  /// Runs `metronome` with `arguments`; `input` becomes standard input (closed at once when nil).
  static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws
    -> ProcessResult
  {
    try ChildProcess.run(binary, arguments, input: input, environment: environment)
  }
}

enum ChildProcess {
  /// Runs `executable` and waits for it; standard output and error are read while it runs.
  ///
  /// A program that leaves a daemon behind (which keeps the pipes open) needs `captureOutput: false`.
  /// It runs in `directory` when given, so that files it names relative go there.
  static func run(
    _ executable: URL, _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
    directory: URL? = nil, captureOutput: Bool = true
  ) throws -> ProcessResult {
    guard captureOutput else { return try spawnAndReap(executable, arguments, environment: environment) }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    process.environment = ChildProcess.environment(adding: environment)
    let output = Pipe()
    let error = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = standardInput
    try process.run()
    // A child may end before it reads its input (a usage error said at once): the write then
    // fails, which is the child's to answer for, not this process's to die of by SIGPIPE (it ended
    // a whole run of Swift Testing's tests beside busy processes, in the fuzz test's binary runs).
    signal(SIGPIPE, SIG_IGN)
    try? standardInput.fileHandleForWriting.write(contentsOf: Data((input ?? "").utf8))
    try standardInput.fileHandleForWriting.close()
    let errorData = ThreadSafeData()
    let readingError = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
    readingError.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(
      status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
      standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData.wait(), as: UTF8.self)
    )
  }

  /// Runs with no standard streams and reaps the child with `waitpid` itself: Foundation's
  /// `Process` can miss the exit of a child that forks a daemon and ends at once (tmux's client),
  /// leaving `waitUntilExit` waiting on a zombie.
  private static func spawnAndReap(_ executable: URL, _ arguments: [String], environment: [String: String]) throws
    -> ProcessResult
  {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
      posix_spawn_file_actions_addopen(
        &actions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
    }
    let variables = ChildProcess.environment(adding: environment).map { "\($0.key)=\($0.value)" }
    let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
    let envp = variables.map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
    guard spawned == 0 else {
      throw FixtureError("cannot run \(executable.path): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    let exited = status & 0x7F == 0
    return ProcessResult(
      status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), standardOutput: "", standardError: "")
  }

  /// The environment every program a test runs starts from: the test's own, with JACK, PipeWire
  /// and PulseAudio clients pointed at servers that nobody runs, and the practice journal kept in
  /// a folder of this test process's own, then `extra` over it.
  ///
  /// So no test reaches a sound server it did not start (a musician's JACK server under the
  /// default name, a desktop's PipeWire): a test that starts one passes that server's variables
  /// in `extra`, and one that checks the error for a missing server gets it on any machine. No
  /// live run a test makes is kept in the user's own journal.
  static func environment(adding extra: [String: String]) -> [String: String] {
    _ = removingStateHomeAtExit
    return ProcessInfo.processInfo.environment.merging(noSoundServer) { $1 }
      .merging(["XDG_STATE_HOME": stateHome]) { $1 }.merging(extra) { $1 }
  }

  /// The folder the programs this test process runs keep their state in (the journal).
  static var stateHome: String {
    FileManager.default.temporaryDirectory.appendingPathComponent("metronome-test-state-\(getpid())").path
  }

  /// Removes `stateHome` as this test process ends, asked for once.
  private static let removingStateHomeAtExit: Void = {
    atexit { try? FileManager.default.removeItem(atPath: ChildProcess.stateHome) }
  }()

  /// Server names under which no server runs, this test process's own.
  static let noSoundServer = [
    "JACK_DEFAULT_SERVER": "metronome-test-none-\(getpid())",
    "PIPEWIRE_REMOTE": "metronome-test-none-\(getpid())",
    "PULSE_SERVER": "unix:/nonexistent/metronome-test-none-\(getpid())",
  ]

  /// The path of a program on PATH, or nil.
  static func which(_ name: String) -> URL? {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }
}

/// Data filled in by one thread and awaited by another.
///
/// `@unchecked Sendable`: the data is read and written only under `condition`.
final class ThreadSafeData: @unchecked Sendable {
  private let condition = NSCondition()
  private var data: Data?

  func set(_ value: Data) {
    condition.withLock {
      data = value
      condition.broadcast()
    }
  }

  func wait() -> Data {
    condition.withLock {
      while true {
        if let data { return data }
        condition.wait()
      }
    }
  }
}

/// A run whose standard output lines are timed as they arrive, on the monotonic clock.
struct TimedRun {
  let status: Int32
  /// Each line and the seconds since the run started when it arrived.
  let lines: [(seconds: Double, text: String)]
  let standardError: String

  /// Runs `executable` (metronome unless given) with `arguments` and standard input closed;
  /// `onLine` sees each line's index as it arrives, on the reading thread.
  ///
  /// The lines are read at the metronome's own real-time priority where the system allows it, so
  /// that a line stamped late was printed late: a loaded run failed on a line 173 ms late that no
  /// stall of the machine explained, read at normal priority beside two busy processes.
  static func run(
    _ arguments: [String], executable: URL = MetronomeProcess.binary, environment: [String: String] = [:],
    onLine: (Int) -> Void = { _ in }
  ) throws -> TimedRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ChildProcess.environment(adding: environment)
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    let started = DispatchTime.now()
    try process.run()
    let errorData = ThreadSafeData()
    Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }.start()
    var lines: [(Double, String)] = []
    var pending = Data()
    RealtimePriority.whileRaised {
      while true {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        pending += chunk
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          lines.append((seconds, String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)))
          onLine(lines.count - 1)
          pending = Data(pending[pending.index(after: newline)...])
        }
      }
    }
    process.waitUntilExit()
    return TimedRun(
      status: process.terminationStatus, lines: lines,
      standardError: String(decoding: errorData.wait(), as: UTF8.self))
  }

  /// How far, in seconds, the line of a beat came from when the beat was heard, at worst.
  ///
  /// The first is the reference; `arrivals` are when the lines came, `times` the beats' times, line
  /// for line. The display lights a beat when its line would come.
  static func worstLateness(arrivals: [Double], times: [Double]) -> Double {
    guard let firstArrival = arrivals.first, let firstTime = times.first else { return .infinity }
    return zip(arrivals, times).map { abs(($0 - firstArrival) - ($1 - firstTime)) }.max() ?? 0
  }
}

/// The binary running in the background while a test acts on it, its standard output and error
/// on pipes and its standard input closed.
final class BackgroundRun {
  let process = Process()
  private let output = Pipe()
  private let errors = Pipe()

  /// Starts `executable` (metronome unless given) with `arguments`, in `environment` added to the test's.
  init(_ arguments: [String], executable: URL = MetronomeProcess.binary, environment: [String: String] = [:]) throws {
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ChildProcess.environment(adding: environment)
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = errors
    try process.run()
  }

  /// Reads standard output up to the end of its first line (or its end), and returns what came.
  func readFirstLine() -> String { readOutput { $0.contains("\n") } }

  /// Reads standard output until what came is `enough` (or the output ends), and returns what came.
  func readOutput(until enough: (String) -> Bool) -> String {
    var received = Data()
    while !enough(String(decoding: received, as: UTF8.self)) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      received += chunk
    }
    return String(decoding: received, as: UTF8.self)
  }

  /// Closes the reading end of standard output, as a reader that goes away does.
  func stopReading() throws { try output.fileHandleForReading.close() }

  /// Asks the program to end now (SIGTERM) where it still runs, then waits for it as `finish` does:
  /// for a helper that would otherwise wait out its time after the take it plays for is over.
  @discardableResult
  func end() -> (output: Data, errors: String) {
    if process.isRunning { process.terminate() }
    return finish()
  }

  /// Asks the program to end as Ctrl-C would (SIGINT) where it still runs, then waits for it as
  /// `finish` does: for a monitor that prints what it heard as it ends (`timeout` passes the signal
  /// on to the command it runs).
  @discardableResult
  func interrupt() -> (output: Data, errors: String) {
    if process.isRunning { kill(process.processIdentifier, SIGINT) }
    return finish()
  }

  /// Waits for the end, reading standard output meanwhile so a full pipe cannot hold the run up;
  /// returns standard output and standard error.
  @discardableResult
  func finish() -> (output: Data, errors: String) {
    let errorData = ThreadSafeData()
    Thread { [errors] in errorData.set(errors.fileHandleForReading.readDataToEndOfFile()) }.start()
    let outputData = (try? output.fileHandleForReading.readToEnd()) ?? Data()
    process.waitUntilExit()
    return (outputData, String(decoding: errorData.wait(), as: UTF8.self))
  }
}
