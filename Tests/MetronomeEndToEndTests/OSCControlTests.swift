import Foundation
import MetronomeTesting
import OSCControl
import XCTest

/// klick's OSC remote control of the built binary, driven by liblo's own `oscsend`; the replies
/// come to a socket of the test's own on the loopback interface, which `--osc-return` names, so
/// that the metronome's port (which the system chooses) is learnt from its `/klick/ready`.
final class OSCControlTests: XCTestCase {
  private static let oscsend = URL(fileURLWithPath: "/usr/bin/oscsend")

  /// The messages that reach a socket of the test's own, and from where.
  private final class Listener: @unchecked Sendable {
    let socket: OSCSocket
    private let lock = NSLock()
    private var received: [(message: OSCMessage, from: OSCEndpoint)] = []
    private let arrived = DispatchSemaphore(value: 0)

    init() throws {
      socket = try OSCSocket(host: "127.0.0.1", port: 0)
      socket.startReceiving { [weak self] packet, sender in
        guard let self else { return }
        let messages = (try? OSCCodec.messages(in: packet)) ?? []
        lock.withLock { received += messages.map { ($0, sender) } }
        for _ in messages { arrived.signal() }
      }
    }

    /// The messages received so far.
    var messages: [(message: OSCMessage, from: OSCEndpoint)] { lock.withLock { received } }

    /// Waits until the messages received meet `condition`, giving up when five seconds pass
    /// with none arriving; whether they do.
    func waitUntil(_ condition: ([OSCMessage]) -> Bool) -> Bool {
      while !condition(messages.map(\.message)) {
        guard arrived.wait(timeout: .now() + 5) == .success else { return condition(messages.map(\.message)) }
      }
      return true
    }
  }

  private func oscsend(_ endpoint: OSCEndpoint, _ arguments: [String]) throws {
    let result = try ChildProcess.run(Self.oscsend, [endpoint.host, "\(endpoint.port)"] + arguments)
    XCTAssertEqual(result.status, 0, result.standardError)
  }

  /// `/klick/simple/set_tempo f 96` from oscsend is heard from the next beat, `/klick/query` then
  /// answers with it, in klick's order, to the address it gives, and a registered client is told
  /// every beat heard after it registered, with the frame the beat's line gives.
  func testATempoSentWithOscsendIsHeardFromTheNextBeatQueriedAndEachBeatIsTold() throws {
    let listener = try Listener()
    var metronome: OSCEndpoint?
    var sentAfter: Int?
    let run = try TimedRun.run(
      [
        "120", "--silent", "--headless", "--events", "ndjson", "--duration", "4", "--osc-return",
        listener.socket.endpoint.description,
      ],
      onLine: { index in
        if index == 0, listener.waitUntil({ !$0.isEmpty }) { metronome = listener.messages.first?.from }
        guard index == 2, let metronome else { return }
        try? self.oscsend(metronome, ["/klick/simple/set_tempo", "f", "96"])
        try? self.oscsend(metronome, ["/klick/query", "s", listener.socket.endpoint.description])
        try? self.oscsend(metronome, ["/klick/register_client", "s", listener.socket.endpoint.description])
        sentAfter = index
      })
    XCTAssertEqual(run.status, 0, run.standardError)
    XCTAssertEqual(listener.messages.first?.message, OSCMessage("/klick/ready"))
    XCTAssertEqual(sentAfter, 2, "metronome's /klick/ready never came: \(run.standardError)")

    let beats = try run.lines.map {
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.text.utf8)) as? [String: Any])
    }
    let tempos = beats.compactMap { $0["tempo"] as? Double }
    // The beat after the line that sent it is the first at 96: a beat already on its way keeps its time.
    XCTAssertEqual(Array(tempos.prefix(3)), [120, 120, 120])
    XCTAssertEqual(tempos.dropFirst(3).first, 96, "\(tempos)")
    XCTAssertTrue(tempos.dropFirst(3).allSatisfy { $0 == 96 }, "\(tempos)")

    XCTAssertTrue(listener.waitUntil { $0.filter { $0.path.hasPrefix("/klick/") }.count >= 14 })
    let query = listener.messages.map(\.message).filter { $0.path.hasPrefix("/klick/") }.dropFirst().prefix(13)
      .map(\.description)
    XCTAssertEqual(
      Array(query),
      [
        "/klick/config/sound ,i 0", "/klick/config/sound_volume ,ff 1.0 1.0", "/klick/config/sound_pitch ,ff 1.0 1.0",
        "/klick/config/volume ,f 1.0", "/klick/metro/type ,s \"simple\"", "/klick/metro/active ,i 1",
        "/klick/simple/tempo ,f 96.0", "/klick/simple/tempo_increment ,f 0.0", "/klick/simple/tempo_start ,f 0.0",
        "/klick/simple/tempo_limit ,f 0.0", "/klick/simple/current_tempo ,f 96.0", "/klick/simple/meter ,ii 4 4",
        "/klick/simple/pattern ,s \"\"",
      ])
    // Registered after the third line: told the beats from the fourth or fifth on, to the end.
    let frames = beats.compactMap { $0["frame"] as? Int }
    // Each beat is told before its line is printed: the last line's beat is on its way.
    let last = Int64(frames.last ?? 0)
    XCTAssertTrue(
      listener.waitUntil { $0.contains { $0.path == "/metronome/beat" && $0.arguments[6] == .int64(last) } })
    let told = listener.messages.map(\.message).filter { $0.path == "/metronome/beat" }
    XCTAssertEqual(
      told.compactMap { if case .int64(let frame) = $0.arguments[6] { Int(frame) } else { nil } },
      Array(frames.suffix(told.count)))
    XCTAssertGreaterThanOrEqual(told.count, frames.count - 5, "\(told)")
  }

  /// Side by side with klick on a JACK dummy server of the test's own: started alike, stopped
  /// (klick starts stopped when it takes OSC), then changed alike (tempo, meter, pattern, volumes),
  /// the two answer every query with the same messages, as liblo writes them.
  func testTheSameQueriesGiveKlicksRepliesForTheSameState() throws {
    let klickPath = try XCTUnwrap(ChildProcess.which("klick"), "klick is missing: run scripts/setup")
    let server = try JACKDummyServer()
    defer { server.stop() }
    let (theirs, ours) = (try Listener(), try Listener())
    let klick = try BackgroundRun(
      ["-n", "klick-osc", "-R", theirs.socket.endpoint.description, "3/4", "96", "X.x"], executable: klickPath,
      environment: server.environment)
    defer {
      klick.process.terminate()
      klick.finish()
    }
    let metronome = try BackgroundRun(
      [
        "3/4", "96", "X.x", "--silent", "--headless", "--events", "none", "--duration", "60", "--osc-return",
        ours.socket.endpoint.description,
      ])
    XCTAssertTrue(theirs.waitUntil { !$0.isEmpty } && ours.waitUntil { !$0.isEmpty }, "no /klick/ready came")
    let (klickAt, metronomeAt) = (try XCTUnwrap(theirs.messages.first?.from), try XCTUnwrap(ours.messages.first?.from))
    try oscsend(metronomeAt, ["/klick/metro/stop"])

    /// Sends `arguments` to both, then each query, and compares what each answered.
    func compare(after changes: [[String]]) throws {
      for change in changes {
        try oscsend(klickAt, change)
        try oscsend(metronomeAt, change)
      }
      for query in ["/klick/query", "/klick/simple/query", "/klick/metro/query", "/klick/config/query"] {
        let before = (theirs.messages.count, ours.messages.count)
        try oscsend(klickAt, [query, "s", theirs.socket.endpoint.description])
        try oscsend(metronomeAt, [query, "s", ours.socket.endpoint.description])
        let expected =
          query == "/klick/query" ? 13 : query == "/klick/simple/query" ? 7 : query == "/klick/metro/query" ? 2 : 4
        XCTAssertTrue(
          theirs.waitUntil { $0.count >= before.0 + expected } && ours.waitUntil { $0.count >= before.1 + expected })
        XCTAssertEqual(
          ours.messages.dropFirst(before.1).map(\.message.description),
          theirs.messages.dropFirst(before.0).map(\.message.description), "\(query) after \(changes)")
      }
    }
    try compare(after: [])
    try compare(after: [
      ["/klick/simple/set_tempo", "f", "133.5"], ["/klick/simple/set_meter", "ii", "7", "8"],
      ["/klick/simple/set_pattern", "s", "X..x..x"],
    ])
    // A pattern of another length is refused, and a meter of other beats forgets the pattern.
    try compare(after: [["/klick/simple/set_pattern", "s", "Xx"], ["/klick/simple/set_meter", "ii", "5", "4"]])
    try compare(after: [
      ["/klick/config/set_volume", "f", "0.5"], ["/klick/config/set_sound_volume", "ff", "0.8", "0.4"],
    ])
    try oscsend(metronomeAt, ["/klick/quit"])
    XCTAssertEqual(
      metronome.finish().errors.split(separator: "\n").filter { $0.contains("set_pattern") },
      ["metronome: /klick/simple/set_pattern: pattern length doesn't match number of beats"])
    XCTAssertEqual(metronome.process.terminationStatus, 0)
  }

  /// Called as klick with OSC, it starts stopped, as klick does, until `/klick/metro/start`; the
  /// registered client hears it start, and then the beats.
  func testKlicksCommandLineWithOSCStartsStoppedUntilStarted() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let link = FileManager.default.temporaryDirectory.appendingPathComponent("klick-\(UUID())/klick")
    try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: link.deletingLastPathComponent()) }
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: MetronomeProcess.binary)
    let listener = try Listener()
    let klick = try BackgroundRun(
      ["-n", "klick-cli", "-R", listener.socket.endpoint.description, "3/4", "96"], executable: link,
      environment: server.environment)
    XCTAssertTrue(listener.waitUntil { !$0.isEmpty }, "no /klick/ready came")
    let at = try XCTUnwrap(listener.messages.first?.from)
    try oscsend(at, ["/klick/register_client", "s", listener.socket.endpoint.description])
    try oscsend(at, ["/klick/metro/query", "s", listener.socket.endpoint.description])
    XCTAssertTrue(listener.waitUntil { $0.contains(OSCMessage("/klick/metro/active", [.int32(0)])) })
    try oscsend(at, ["/klick/metro/start"])
    XCTAssertTrue(listener.waitUntil { $0.filter { $0.path == "/metronome/beat" }.count >= 2 })
    XCTAssertTrue(listener.messages.contains { $0.message == OSCMessage("/klick/metro/active", [.int32(1)]) })
    try oscsend(at, ["/klick/quit"])
    let errors = klick.finish().errors
    XCTAssertFalse(errors.contains("Error"), errors)
    XCTAssertEqual(klick.process.terminationStatus, 0)
  }

  /// Following the JACK transport, the metronome is klick's "jack" one: the simple metronome's
  /// setters are refused as klick refuses them, while queries and metronome's own namespace work.
  func testOSCWorksWhileFollowingTheJACKTransport() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let listener = try Listener()
    let metronome = try BackgroundRun(
      [
        "--jack", "--follow-transport", "--connect", "none", "--headless", "--events", "none", "--osc-return",
        listener.socket.endpoint.description,
      ], environment: server.environment)
    XCTAssertTrue(listener.waitUntil { !$0.isEmpty }, "no /klick/ready came")
    let at = try XCTUnwrap(listener.messages.first?.from)
    try oscsend(at, ["/klick/simple/set_tempo", "f", "96"])
    try oscsend(at, ["/klick/query", "s", listener.socket.endpoint.description])
    XCTAssertTrue(listener.waitUntil { $0.count >= 7 })
    XCTAssertEqual(
      listener.messages.dropFirst().prefix(6).map(\.message.description).suffix(2),
      ["/klick/metro/type ,s \"jack\"", "/klick/metro/active ,i 0"])
    try oscsend(at, ["/metronome/query", "s", listener.socket.endpoint.description])
    XCTAssertTrue(listener.waitUntil { $0.contains { $0.path == "/metronome/looping" } })
    try oscsend(at, ["/klick/quit"])
    let errors = metronome.finish().errors
    XCTAssertTrue(
      errors.contains("metronome: /klick/simple/set_tempo: function not available for current metronome type\n"),
      errors)
    XCTAssertEqual(metronome.process.terminationStatus, 0)
  }

  /// With `--jack`, klick's port messages act on the client's port, as `jack_lsp -c` shows: the
  /// server's input ports listed, one connected (a port that is not there is one line), every
  /// connection undone, the physical playback ports connected again.
  func testKlicksPortMessagesConnectTheJACKClientsPort() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let listener = try Listener()
    let metronome = try BackgroundRun(
      [
        "120", "--jack", "--client-name", "metronome-ports", "--connect", "none", "--headless", "--events", "none",
        "--osc-return", listener.socket.endpoint.description,
      ], environment: server.environment)
    XCTAssertTrue(listener.waitUntil { !$0.isEmpty }, "no /klick/ready came")
    let at = try XCTUnwrap(listener.messages.first?.from)
    let here = listener.socket.endpoint.description

    /// Sends `arguments`, then a ping whose pong says they were handled; what the port is then
    /// connected to.
    func connections(after arguments: [String]) throws -> [String] {
      let pongs = listener.messages.filter { $0.message.path == "/klick/pong" }.count
      try oscsend(at, arguments)
      try oscsend(at, ["/klick/ping", "s", here])
      XCTAssertTrue(listener.waitUntil { $0.filter { $0.path == "/klick/pong" }.count > pongs })
      let lines = try ChildProcess.run(
        try XCTUnwrap(ChildProcess.which("jack_lsp")), ["-c", "-s", server.name], environment: server.environment
      ).standardOutput.split(separator: "\n")
      return Array(
        lines.drop { $0 != "metronome-ports:click" }.dropFirst().prefix { $0.hasPrefix(" ") }.map {
          $0.trimmingCharacters(in: .whitespaces)
        })
    }

    XCTAssertEqual(try connections(after: ["/klick/config/get_available_ports", "s", here]), [])
    XCTAssertEqual(
      listener.messages.first { $0.message.path == "/klick/config/available_ports" }?.message,
      OSCMessage("/klick/config/available_ports", [.string("system:playback_1"), .string("system:playback_2")]))
    XCTAssertEqual(
      try connections(after: ["/klick/config/connect", "ss", "system:playback_2", "nowhere:in"]), ["system:playback_2"])
    XCTAssertEqual(try connections(after: ["/klick/config/disconnect_all"]), [])
    XCTAssertEqual(
      try connections(after: ["/klick/config/autoconnect"]), ["system:playback_1", "system:playback_2"])
    try oscsend(at, ["/klick/quit"])
    let errors = metronome.finish().errors
    XCTAssertEqual(
      errors.split(separator: "\n").filter { $0.contains("/klick/") },
      [
        "metronome: OSC: /klick/config/connect: JACK could not connect 'metronome-ports:click' to 'nowhere:in': is"
          + " 'nowhere:in' an input port? (see jack_lsp)"
      ])
    XCTAssertEqual(metronome.process.terminationStatus, 0)
  }

  /// A port another program holds is one line and status 1, before anything plays.
  func testAPortInUseIsOneLine() throws {
    let holder = try OSCSocket(host: "127.0.0.1", port: 0)
    let run = try MetronomeProcess.run(["120", "--silent", "--duration", "1", "--osc", "\(holder.endpoint.port)"])
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(
      run.standardError,
      "Error: cannot listen for OSC on 127.0.0.1 port \(holder.endpoint.port): it is in use: choose another with"
        + " --osc PORT\n")
    XCTAssertEqual(run.standardOutput, "")
  }
}
