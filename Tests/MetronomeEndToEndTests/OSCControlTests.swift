import Foundation
import MetronomeTesting
import OSCControl
import XCTest

/// klick's OSC remote control of the built binary, driven by liblo's own `oscsend`; the replies
/// come to a socket of the test's own on the loopback interface, which `--osc-return` names, so
/// that the metronome's port (which the system chooses) is learnt from its `/klick/ready`.
final class OSCControlTests: TimeLimitedTestCase {
  /// `/klick/simple/set_tempo f 96` from oscsend is heard from the next beat, `/klick/query` then
  /// answers with it, in klick's order, to the address it gives, and a registered client is told
  /// every beat heard after it registered, with the frame the beat's line gives.
  func testATempoSentWithOscsendIsHeardFromTheNextBeatQueriedAndEachBeatIsTold() throws {
    let listener = try OSCListener()
    var metronome: OSCEndpoint?
    var sentAfter: Int?
    var bound: [String] = []
    let run = try TimedRun.run(
      [
        "120", "--silent", "--headless", "--events", "ndjson", "--duration", "4", "--osc-return",
        listener.socket.endpoint.description,
      ],
      onLine: { index in
        if index == 0, listener.waitUntil({ !$0.isEmpty }) {
          metronome = listener.messages.first?.from
          bound = metronome.map { Self.boundAddresses(port: $0.port) } ?? []
        }
        guard index == 2, let metronome else { return }
        try? OSCListener.oscsend(metronome, ["/klick/simple/set_tempo", "f", "96"])
        try? OSCListener.oscsend(metronome, ["/klick/query", "s", listener.socket.endpoint.description])
        try? OSCListener.oscsend(metronome, ["/klick/register_client", "s", listener.socket.endpoint.description])
        sentAfter = index
      })
    XCTAssertEqual(run.status, 0, run.standardError)
    XCTAssertEqual(listener.messages.first?.message, OSCMessage("/klick/ready"))
    XCTAssertEqual(sentAfter, 2, "metronome's /klick/ready never came: \(run.standardError)")
    XCTAssertEqual(bound, ["127.0.0.1"], "OSC listens on the loopback interface only")

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
  /// (klick starts stopped when it takes OSC), then changed alike (tempo, meter, pattern, volumes,
  /// sound and pitch, the speed trainer, the kind of metronome, a preroll), the two answer every
  /// query with the same messages, as liblo writes them.
  func testTheSameQueriesGiveKlicksRepliesForTheSameState() throws {
    let klickPath = try XCTUnwrap(ChildProcess.which("klick"), "klick is missing: run scripts/setup")
    let server = try JACKDummyServer()
    defer { server.stop() }
    let (theirs, ours) = (try OSCListener(), try OSCListener())
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
    let (klickAt, metronomeAt) = (try theirs.readySender(), try ours.readySender())
    try OSCListener.oscsend(metronomeAt, ["/klick/metro/stop"])

    /// Sends each of `changes` to both, then each query (with the count of replies it gives), and
    /// compares what each answered.
    func compare(
      after changes: [[String]],
      queries: KeyValuePairs<String, Int> = [
        "/klick/query": 13, "/klick/simple/query": 7, "/klick/metro/query": 2, "/klick/config/query": 4,
      ]
    ) throws {
      for change in changes {
        try OSCListener.oscsend(klickAt, change)
        try OSCListener.oscsend(metronomeAt, change)
      }
      for (query, expected) in queries {
        let before = (theirs.messages.count, ours.messages.count)
        try OSCListener.oscsend(klickAt, [query, "s", theirs.socket.endpoint.description])
        try OSCListener.oscsend(metronomeAt, [query, "s", ours.socket.endpoint.description])
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
    try compare(after: [
      ["/klick/config/set_sound", "i", "3"], ["/klick/config/set_sound_pitch", "ff", "1.5", "0.75"],
    ])
    try compare(after: [
      ["/klick/simple/set_tempo_increment", "f", "2.5"], ["/klick/simple/set_tempo_start", "f", "100"],
      ["/klick/simple/set_tempo_limit", "f", "140"],
    ])
    // klick's map metronome, with no map file: the tempo, meter and pattern in force, as a map.
    try compare(
      after: [["/klick/metro/set_type", "s", "map"], ["/klick/map/set_preroll", "i", "2"]],
      queries: ["/klick/query": 9, "/klick/map/query": 3, "/klick/metro/query": 2])
    try OSCListener.oscsend(metronomeAt, ["/klick/quit"])
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
    let listener = try OSCListener()
    let klick = try BackgroundRun(
      ["-n", "klick-cli", "-R", listener.socket.endpoint.description, "3/4", "96"], executable: link,
      environment: server.environment)
    let at = try listener.readySender()
    try OSCListener.oscsend(at, ["/klick/register_client", "s", listener.socket.endpoint.description])
    try OSCListener.oscsend(at, ["/klick/metro/query", "s", listener.socket.endpoint.description])
    XCTAssertTrue(listener.waitUntil { $0.contains(OSCMessage("/klick/metro/active", [.int32(0)])) })
    try OSCListener.oscsend(at, ["/klick/metro/start"])
    XCTAssertTrue(listener.waitUntil { $0.filter { $0.path == "/metronome/beat" }.count >= 2 })
    XCTAssertTrue(listener.messages.contains { $0.message == OSCMessage("/klick/metro/active", [.int32(1)]) })
    try OSCListener.oscsend(at, ["/klick/quit"])
    let errors = klick.finish().errors
    XCTAssertFalse(errors.contains("Error"), errors)
    XCTAssertEqual(klick.process.terminationStatus, 0)
  }

  /// Following the JACK transport, the metronome is klick's "jack" one: the simple metronome's
  /// setters are refused as klick refuses them, while queries and metronome's own namespace work.
  func testOSCWorksWhileFollowingTheJACKTransport() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let listener = try OSCListener()
    let metronome = try BackgroundRun(
      [
        "--jack", "--follow-transport", "--connect", "none", "--headless", "--events", "none", "--osc-return",
        listener.socket.endpoint.description,
      ], environment: server.environment)
    let at = try listener.readySender()
    try OSCListener.oscsend(at, ["/klick/simple/set_tempo", "f", "96"])
    try OSCListener.oscsend(at, ["/klick/query", "s", listener.socket.endpoint.description])
    XCTAssertTrue(listener.waitUntil { $0.count >= 7 })
    XCTAssertEqual(
      listener.messages.dropFirst().prefix(6).map(\.message.description).suffix(2),
      ["/klick/metro/type ,s \"jack\"", "/klick/metro/active ,i 0"])
    try OSCListener.oscsend(at, ["/metronome/query", "s", listener.socket.endpoint.description])
    XCTAssertTrue(listener.waitUntil { $0.contains { $0.path == "/metronome/looping" } })
    try OSCListener.oscsend(at, ["/klick/quit"])
    let errors = metronome.finish().errors
    XCTAssertTrue(
      errors.contains("metronome: /klick/simple/set_tempo: function not available for current metronome type\n"),
      errors)
    XCTAssertEqual(metronome.process.terminationStatus, 0)
  }

  /// Following another metronome's MIDI clock, the clock's tempo is the one in force: a tempo
  /// sent over OSC is one line, the query answers with the clock's, and every beat plays at it.
  ///
  /// A cycle the dummy server breaks delays the clock's ticks and moves the tempo they say (135.4
  /// for a take in CI), whatever metronome did: such a take is taken again.
  func testOSCWorksWhileFollowingMIDIClock() throws {
    typealias Take = (answered: OSCMessage?, errors: String, tempos: [Int])
    let check = { (take: Take) -> [String] in
      take.answered == OSCMessage("/klick/simple/tempo", [.float32(137)]) && take.tempos.count > 4
        && Set(take.tempos) == [137]
        ? [] : ["the query answered \(take.answered?.description ?? "nothing"), tempos \(take.tempos)"]
    }
    let take = try retakenWhileTheHarnessGlitches(check: check) { () throws -> (Take, [String]) in
      let server = try JACKDummyServer()
      defer { server.stop() }
      let listener = try OSCListener()
      let follower = try BackgroundRun(
        [
          "--jack", "--client-name", "follower", "--follow-midi-clock", "--connect", "none", "--headless", "--events",
          "ndjson", "--duration", "5", "--osc-return", listener.socket.endpoint.description,
        ], environment: server.environment)
      let at = try listener.readySender()
      try server.waitForPorts { $0.contains("follower:midi_in") }
      let sender = try BackgroundRun(
        [
          // Its count-in's clock tells the follower the tempo before its first beat.
          "137", "--jack", "--client-name", "sender", "--connect", "none", "--midi-clock", "--midi-connect",
          "follower:midi_in", "--count-in", "1", "--duration", "4", "--headless", "--events", "none",
        ], environment: server.environment)
      let firstLine = follower.readFirstLine()
      try OSCListener.oscsend(at, ["/klick/simple/set_tempo", "f", "96"])
      try OSCListener.oscsend(at, ["/klick/simple/query", "s", listener.socket.endpoint.description])
      XCTAssertTrue(listener.waitUntil { $0.contains { $0.path == "/klick/simple/tempo" } })
      let (output, errors) = follower.finish()
      _ = sender.finish()
      let tempos = (firstLine + "\n" + String(decoding: output, as: UTF8.self)).split(separator: "\n").compactMap {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["tempo"] as? Int
      }
      let answered = listener.messages.first { $0.message.path == "/klick/simple/tempo" }?.message
      return ((answered, errors, tempos), server.brokenCycles())
    }
    guard let take else { return }
    XCTAssertTrue(
      take.errors.contains(
        "metronome: OSC: /klick/simple/set_tempo: the tempo follows MIDI clock; what is in force stays\n"),
      take.errors)
  }

  /// With `--jack`, klick's port messages act on the client's port, as `jack_lsp -c` shows: the
  /// server's input ports listed, one connected (a port that is not there is one line), every
  /// connection undone, the physical playback ports connected again.
  func testKlicksPortMessagesConnectTheJACKClientsPort() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let listener = try OSCListener()
    let metronome = try BackgroundRun(
      [
        "120", "--jack", "--client-name", "metronome-ports", "--connect", "none", "--headless", "--events", "none",
        "--osc-return", listener.socket.endpoint.description,
      ], environment: server.environment)
    let at = try listener.readySender()
    let here = listener.socket.endpoint.description

    /// Sends `arguments`, then a ping whose pong says they were handled; what the port is then
    /// connected to.
    func connections(after arguments: [String]) throws -> [String] {
      let pongs = listener.messages.filter { $0.message.path == "/klick/pong" }.count
      try OSCListener.oscsend(at, arguments)
      try OSCListener.oscsend(at, ["/klick/ping", "s", here])
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
    try OSCListener.oscsend(at, ["/klick/quit"])
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

  /// The local addresses of the UDP sockets bound to `port`, as the kernel lists them in
  /// /proc/net/udp: an answer from loopback alone does not tell a socket bound to every interface.
  private static func boundAddresses(port: UInt16) -> [String] {
    let table = (try? String(contentsOfFile: "/proc/net/udp", encoding: .utf8)) ?? ""
    return table.split(separator: "\n").dropFirst().compactMap { row in
      let local = row.split(separator: " ")[1].split(separator: ":")
      guard local.count == 2, UInt16(local[1], radix: 16) == port, let address = UInt32(local[0], radix: 16) else {
        return nil
      }
      // The address is in the kernel's byte order: little-endian here.
      return (0..<4).map { String(address >> (8 * $0) & 0xFF) }.joined(separator: ".")
    }
  }
}
