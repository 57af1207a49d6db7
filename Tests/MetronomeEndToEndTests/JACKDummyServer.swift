import Foundation
import Glibc
import MetronomeTesting
import XCTest

/// A JACK server on the dummy backend (paced in real time, no sound card), started for one test
/// under a name no other running server has and stopped, by process id, when the test ends.
///
/// The names come from a small pool rather than being new each time: JACK keeps eight server
/// slots in its registry and frees the slot of a server that died (killed with its test run)
/// only when a server of the same name registers. With a new name per test, dead test servers
/// kept their slots until every live test failed with "Too many servers already active" (seen:
/// eight dead test servers, seven of them from earlier runs); with the pool, the next test
/// server of that name takes the slot back. Tests run side by side (`swift test --parallel`), so a
/// name is claimed before its server starts: by binding a socket of that name in Linux's abstract
/// namespace, which one process at a time can hold and which goes with the process however it
/// ends, leaving no file behind.
final class JACKDummyServer {
  /// The names test servers take, one at a time each.
  static let names = (1...4).map { "metronome-test-\($0)" }
  let name: String
  /// The socket whose name claims `name` for this test while its server runs.
  private let claim: Int32
  /// The running server; a new one for each start tried.
  private var server = Process()
  /// Whether JACK's registry was there before this server: if not, this test made it.
  private let registryExisted = FileManager.default.fileExists(atPath: "/dev/shm/jack-shm-registry")
  /// What the server printed: its xruns are reported there.
  private let log = FileManager.default.temporaryDirectory.appendingPathComponent("jackd-\(UUID()).log")
  private var isStopped = false

  /// The frames of a cycle unless a test asks otherwise: 1024 (21 ms).
  ///
  /// On a virtual machine the host pauses a virtual processor for some milliseconds now and then,
  /// which breaks a cycle of 256 frames (5.3 ms) whatever the clients' real-time priority: beside
  /// two busy loops, 37 xruns in 120 s at 256 and none in 120 s at 1024 (scripts/MEASUREMENTS.md).
  static let defaultPeriodFrames = 1_024

  init(sampleRate: Int = 48_000, periodFrames: Int = defaultPeriodFrames) throws {
    guard let jackd = ChildProcess.which("jackd"), ChildProcess.which("jack_rec") != nil else {
      throw XCTSkip("unreachable: scripts/setup installs jackd2")
    }
    // Another test's server may hold a name, or another test run's: the first one free.
    var claimed: (name: String, socket: Int32)?
    for name in Self.names where claimed == nil {
      claimed = Self.claim(name).map { (name, $0) }
    }
    guard let claimed else {
      throw FixtureError("every test server name is taken: \(Self.names.joined(separator: ", "))")
    }
    (name, claim) = (claimed.name, claimed.socket)
    // Real-time scheduling, as JACK is meant to run: a server on the normal scheduler misses cycles
    // whenever other processes keep the cores busy, and every miss moves the capture by a period.
    let arguments = [
      "--realtime", "-P", "70", "-n", name, "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(periodFrames)",
    ]
    // Servers starting at the same moment race for JACK's registry, which the first one makes (seen
    // with three tests at once: "Cannot connect to server socket"): one starts at a time.
    let starting = Self.startingAlone()
    defer { if starting >= 0 { close(starting) } }
    // A server that does not take clients (seen once in a full run of the suite: `jack_wait` could
    // not connect to it) is the harness's trouble: it is started once more, and that said as a retake.
    for attempt in 1...2 {
      let why = try start(jackd, arguments)
      guard let why else { return }
      stopServer()
      guard attempt == 1 else {
        stop()
        throw FixtureError("the JACK dummy server '\(name)' did not start, twice: \(why)")
      }
      sayForTheHarness("retake: the JACK dummy server \(name): it did not start (\(why)); started again")
    }
  }

  /// Starts `jackd` with `arguments`, its output in the log, and waits for it to take clients;
  /// returns why not, or nil once it does.
  private func start(_ jackd: URL, _ arguments: [String]) throws -> String? {
    server = Process()
    server.executableURL = jackd
    server.arguments = arguments
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let logHandle = try FileHandle(forWritingTo: log)
    server.standardOutput = logHandle
    server.standardError = logHandle
    try server.run()
    TimeLimitedTestCase.stopsAtTheTimeLimit(server.processIdentifier)
    try logHandle.close()
    let ready = try ChildProcess.run(
      ChildProcess.which("jack_wait")!, ["-s", name, "-w", "-t", "10"], environment: environment)
    guard ready.status != 0 else { return nil }
    return
      "jack_wait: \(ready.standardError.suffix(200).replacingOccurrences(of: "\n", with: " ")); jackd: \(lastSaid())"
  }

  /// The environment that points JACK clients (and ALSA's jack plugin) at this server.
  var environment: [String: String] { ["JACK_DEFAULT_SERVER": name] }

  /// The cycles the server reports as broken so far: a client that did not finish in time
  /// (`JackEngine::XRun`) and the graph errors that follow it.
  ///
  /// Any of them moves what is captured by whole periods, whoever was late: the test harness's
  /// trouble, to tell apart from the underruns metronome itself reports.
  func brokenCycles() -> [String] {
    logLines().filter(Self.saysABrokenCycle).map(String.init)
  }

  private static func saysABrokenCycle(_ line: Substring) -> Bool {
    line.contains("XRun") || line.contains("Process error")
  }

  /// What the server has printed so far, a line each.
  private func logLines() -> [Substring] {
    ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
  }

  /// Waits up to 5 s for the server's ports to be as `isReady` wants them; throws if they are not.
  func waitForPorts(until isReady: ([String]) -> Bool) throws {
    for _ in 1...100 {
      if isReady(try ports()) { return }
      usleep(50_000)
    }
    throw FixtureError(
      "the clients under test did not join the JACK server within 5 s: it has \(try ports()); jackd said: \(lastSaid())"
    )
  }

  /// The server's last lines past its banner, other than its broken cycles, on one line: what it
  /// said of a client it would not take (seen once under load, with nothing to tell whose trouble
  /// it was).
  private func lastSaid() -> String {
    let lines = logLines()
    // The banner ends with the self-connect mode it runs in.
    let pastBanner = lines.lastIndex { $0.hasPrefix("self-connect-mode") }.map { $0 + 1 } ?? 0
    let said = lines[pastBanner...].filter { !Self.saysABrokenCycle($0) }.suffix(12)
    return said.isEmpty ? "nothing past its banner" : said.joined(separator: " | ")
  }

  /// The ports the server has now; throws if `jack_lsp` does not answer within 5 s.
  ///
  /// On a fresh clone's run a `jack_lsp` waited on a futex of a server still running for half an
  /// hour, and its test for its whole time limit: a hung server is said at once.
  func ports() throws -> [String] {
    let listed = try ChildProcess.run(
      URL(fileURLWithPath: "/usr/bin/timeout"), ["--kill-after", "1", "5", "jack_lsp", "-s", name],
      environment: environment)
    // timeout's own statuses: the command was ended by it (124), or killed after it (137).
    guard ![124, 137].contains(listed.status) else {
      throw FixtureError("jack_lsp -s \(name) had no answer from the server within 5 s: it hung")
    }
    return listed.standardOutput.split(separator: "\n").map(String.init)
  }

  /// Stops the server, if it still runs, and removes what it left, once: also after it failed to
  /// start or ended by itself.
  func stop() {
    guard !isStopped else { return }
    isStopped = true
    stopServer()
    try? FileManager.default.removeItem(at: log)
    close(claim)
  }

  /// Stops the server process, if it still runs, and removes what it left.
  private func stopServer() {
    if server.isRunning {
      server.terminate()
      server.waitUntilExit()
    }
    TimeLimitedTestCase.stoppedByItsTest(server.processIdentifier)
    let shared = "/dev/shm"
    let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: shared)) ?? []
    // A server killed, or a client still connected when its server goes away, leaves its socket
    // and semaphores; they are named for this server, so what is left under its name is this test's.
    for file in leftovers where file.hasPrefix("jack") && file.contains("_\(name)_") { unlink("\(shared)/\(file)") }
    // The registry, and the segments and metadata JACK keeps for the user beside it, outlive the
    // last server: this test's to remove if it made them and no other server still uses them.
    if !registryExisted, !Self.aServerRuns() {
      let user = "\(getuid())"
      for file in leftovers
      where file == "jack-shm-registry" || file.hasPrefix("jack-\(user)-") || file == "jack_db-\(user)" {
        try? FileManager.default.removeItem(atPath: "\(shared)/\(file)")
      }
    }
  }

  /// The socket whose name lets one test at a time start its server, once any other test's has
  /// started; -1 where none could be bound within 30 s (the server then starts all the same).
  private static func startingAlone() -> Int32 {
    for _ in 1...1_500 {
      if let socket = claim("metronome-test-starting") { return socket }
      usleep(20_000)
    }
    return -1
  }

  /// A socket bound to `name` in the abstract namespace, where no server of that name runs; nil
  /// where another test holds the name or a server runs under it.
  private static func claim(_ name: String) -> Int32? {
    let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard socket >= 0 else { return nil }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    // The path's first byte stays 0: the abstract namespace.
    let path = Array(name.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (index, byte) in path.enumerated() where index + 1 < bytes.count { bytes[index + 1] = byte }
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + path.count)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
    }
    guard bound == 0, !aServerRuns(named: name) else {
      close(socket)
      return nil
    }
    return socket
  }

  /// Whether a JACK server runs on this machine: any, or the one named `name`.
  private static func aServerRuns(named name: String? = nil) -> Bool {
    let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return processes.contains { pid in
      guard pid.allSatisfy(\.isNumber),
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) == "jackd\n"
      else { return false }
      guard let name else { return true }
      let arguments = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
      return arguments.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.contains(name)
    }
  }

  deinit { stop() }
}

/// `jack_rec` recording ports of a JACK server into a WAV file for a fixed time, one channel each.
///
/// It connects its inputs (`jackrec:input1`, …) to the server's silent capture port; the devices
/// under test connect to them as well, and JACK mixes what each input gets into its channel.
final class JACKRecorder {
  let file: URL
  private let server: JACKDummyServer
  private let recorder = Process()
  private let errors = Pipe()

  init(server: JACKDummyServer, seconds: Int, file: URL, channels: Int = 1) throws {
    self.file = file
    self.server = server
    recorder.executableURL = ChildProcess.which("jack_rec")
    recorder.arguments =
      ["-f", file.path, "-d", "\(seconds)"] + Array(repeating: "system:capture_1", count: channels)
    recorder.environment = ChildProcess.environment(adding: server.environment)
    recorder.standardOutput = FileHandle.nullDevice
    recorder.standardError = errors
    try recorder.run()
    // Wait for its ports: the devices under test connect to them by name.
    var attempts = 0
    while try !server.ports().contains("jackrec:input\(channels)") {
      attempts += 1
      guard recorder.isRunning, attempts < 100 else { throw FixtureError("jack_rec did not register its port") }
      usleep(20_000)
    }
  }

  /// Waits for the recording to end; returns what it complained of (`jack_rec` reports the
  /// periods it dropped as overruns), empty when the recording is whole.
  @discardableResult
  func finish() -> String {
    let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    recorder.waitUntilExit()
    return complaints.split(separator: "\n").filter { $0.contains("overrun") }.joined(separator: "\n")
  }

  /// Waits for the recording to end; returns what went wrong in the harness during the take: the
  /// server's broken cycles and the periods the recorder dropped, either of which moves the
  /// capture whatever the devices under test did.
  func finishTake() -> [String] {
    let dropped = finish()
    return server.brokenCycles() + (dropped.isEmpty ? [] : [dropped])
  }

  deinit {
    if recorder.isRunning {
      recorder.terminate()
      recorder.waitUntilExit()
    }
  }
}

struct FixtureError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
