import Foundation
import MetronomeTesting
import OSCControl
import XCTest

/// Two metronomes in one Ableton Link session, playing into one JACK dummy server, each on a
/// channel of its own: run (by scripts/test) against the variant built with the AbletonLink
/// trait, inside a network namespace of its own, so that Link's multicast never leaves the machine.
final class LinkSessionTests: FolderTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    guard MetronomeProcess.holdsLink else {
      throw FixtureError(
        "these tests need the variant built with Ableton Link: name it in METRONOME_LINK_BINARY, as scripts/test does")
    }
    let interfaces = try String(contentsOfFile: "/proc/net/dev", encoding: .utf8).split(separator: "\n").dropFirst(2)
      .compactMap { $0.split(separator: ":").first?.trimmingCharacters(in: .whitespaces) }
    guard interfaces == ["lo"] else {
      throw FixtureError(
        "Link announces itself on every interface that is up (here \(interfaces)): run this test inside"
          + " `unshare -n` with the loopback up, as scripts/test does")
    }
  }

  /// Two peers click together, share a tempo key and outlive each other.
  ///
  /// A plays at 120 for 9 s; B joins once A plays, asking for 90, presses the tempo key at its
  /// 3 s and quits at its 4 s. Every click of B's, from its first, falls within a millisecond
  /// of one of A's; B's key (120 → 130) is heard from A within one bar; A plays on after B quits.
  func testTwoPeersClickTogetherShareATempoKeyAndOutliveEachOther() throws {
    let check = { (take: (a: [[String: Any]], problems: [String])) in take.problems }
    let take = try retakenWhileTheHarnessGlitches(check: check) {
      let server = try JACKDummyServer()
      defer { server.stop() }
      let environment = server.environment.merging(["HOME": folder.path]) { $1 }
      let capture = folder.appendingPathComponent("link.wav")
      let recorder = try JACKRecorder(server: server, seconds: 11, file: capture, channels: 2)
      let keys = folder.appendingPathComponent("keys.txt")
      try "3 up\n".write(to: keys, atomically: true, encoding: .utf8)
      let peer = ["--jack", "--link", "--headless", "--events", "ndjson"]
      let first = try BackgroundRun(
        peer + ["--client-name", "A", "--connect", "jackrec:input1", "--duration", "9", "120"],
        environment: environment)
      // A plays its first beat once it has looked for peers for a second and a half.
      let aFirst = first.readFirstLine()
      let second = try BackgroundRun(
        peer + ["--client-name", "B", "--connect", "jackrec:input2", "--keys", keys.path, "--duration", "4", "90"],
        environment: environment)
      let (aOutput, aErrors) = first.finish()
      let (bOutput, bErrors) = second.finish()
      let trouble = recorder.finishTake()

      XCTAssertEqual(first.process.terminationStatus, 0, aErrors)
      XCTAssertEqual(second.process.terminationStatus, 0, bErrors)
      let a = try Self.beats(Data(aFirst.utf8) + aOutput)
      let b = try Self.beats(bOutput)
      XCTAssertTrue((a + b).allSatisfy { $0["sync"] as? String == "link" })
      let ours = Onset.detect(in: try WAVFile(contentsOf: capture, channel: 0).samples, sampleRate: 48_000).map(\.frame)
      let theirs = Onset.detect(in: try WAVFile(contentsOf: capture, channel: 1).samples, sampleRate: 48_000)
        .map(\.frame)
      let problems = Self.problems(a: ours, b: theirs, bPrinted: b)
      return ((a, problems.isEmpty ? [] : problems + ["A clicked at \(ours), B at \(theirs)"]), trouble)
    }
    let a = try XCTUnwrap(take).a
    XCTAssertTrue(a.contains { $0["tempo"] as? Int == 130 }, "A never took B's tempo key")
  }

  /// The display names the session's peers: none alone, one once a second metronome has joined;
  /// a tempo key on the display, once the peer plays, is the session's tempo for the peer too.
  func testTheDisplayShowsThePeersAndItsTempoKeyReachesThem() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let environment = server.environment.merging(["HOME": folder.path]) { $1 }
    let display = try TmuxSession(
      command: "'\(MetronomeProcess.binary.path)' --jack --link --connect none 120", environment: environment)
    _ = try display.waitForScreen { $0.contains("Link · 0 peers") }
    // Two sessions that meet become the one that has run longer: let the display's be that one,
    // playing once it has looked for peers for a second and a half.
    _ = try display.waitForScreen { $0.contains("beat 1 of 4") }
    let peer = try BackgroundRun(
      [
        "--jack", "--link", "--client-name", "peer", "--connect", "none", "--headless", "--events", "ndjson",
        "--duration", "4", "90",
      ], environment: environment)
    _ = try display.waitForScreen { $0.contains("Link · 1 peer") }
    // The peer's start waits for the session's next bar line.
    let firstLine = peer.readFirstLine()
    try display.send("Up")
    _ = try display.waitForScreen { $0.contains("130 BPM") }
    let (output, errors) = peer.finish()
    try display.send("q")
    let outcome = try XCTUnwrap(try display.outcome())

    XCTAssertEqual(peer.process.terminationStatus, 0, errors)
    XCTAssertEqual(outcome.status, 0)
    XCTAssertTrue(outcome.terminalRestored)
    let tempos = try Self.beats(Data(firstLine.utf8) + output).compactMap { $0["tempo"] as? Int }
    XCTAssertEqual(tempos.first, 120, "the peer played \(tempos)")
    XCTAssertEqual(tempos.last, 130, "the peer played \(tempos)")
  }

  /// klick's OSC remote control works in a Link session: a tempo sent to one peer is the
  /// session's, heard from the other peer, and the first peer's query answers with it.
  func testATempoSentOverOSCToOnePeerIsTheSessions() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    let environment = server.environment.merging(["HOME": folder.path]) { $1 }
    let listener = try OSCListener()
    let peer = ["--jack", "--link", "--connect", "none", "--headless", "--events", "ndjson"]
    let controlled = try BackgroundRun(
      peer + ["--client-name", "A", "--duration", "8", "--osc-return", listener.socket.endpoint.description, "120"],
      environment: environment)
    let at = try listener.readySender()
    // Once A plays, B joins its session; B's start waits for the session's next bar line.
    _ = controlled.readFirstLine()
    let other = try BackgroundRun(peer + ["--client-name", "B", "--duration", "4", "90"], environment: environment)
    let firstLine = other.readFirstLine()
    try OSCListener.oscsend(at, ["/klick/simple/set_tempo", "f", "96"])
    try OSCListener.oscsend(at, ["/klick/simple/query", "s", listener.socket.endpoint.description])
    XCTAssertTrue(listener.waitUntil { $0.contains { $0.path == "/klick/simple/tempo" } })
    let (output, errors) = other.finish()
    let (_, controlledErrors) = controlled.finish()

    XCTAssertEqual(other.process.terminationStatus, 0, errors)
    XCTAssertEqual(controlled.process.terminationStatus, 0, controlledErrors)
    XCTAssertEqual(
      listener.messages.first { $0.message.path == "/klick/simple/tempo" }?.message,
      OSCMessage("/klick/simple/tempo", [.float32(96)]))
    let tempos = try Self.beats(Data(firstLine.utf8) + output).compactMap { $0["tempo"] as? Int }
    XCTAssertEqual(tempos.first, 120, "B played \(tempos)")
    XCTAssertEqual(tempos.last, 96, "B played \(tempos)")
  }

  /// What is off in a take: B's clicks once joined against A's, A's tempo after B's key, A after B.
  private static func problems(a: [Int], b: [Int], bPrinted: [[String: Any]]) -> [String] {
    guard let bFirst = b.first, let firstPrinted = bPrinted.first?["frame"] as? Int, b.count >= 5 else {
      return ["B clicked \(b.count) times"]
    }
    var problems: [String] = []
    for click in b {
      let nearest = a.min { abs($0 - click) < abs($1 - click) } ?? .min
      if abs(nearest - click) > 48 { problems.append("B at \(click), A nearest at \(nearest)") }
    }
    // B's key at its frame 144000, where the capture puts it.
    let key = 144_000 + bFirst - firstPrinted
    let faster = zip(a, a.dropFirst()).first { abs($1 - $0 - 22_154) <= 2 }.map(\.0)
    if let faster {
      if faster > key + 96_000 || faster < key {
        problems.append("A took 130 at \(faster), not within the bar after B's key at \(key)")
      }
    } else {
      problems.append("A never clicked at 130")
    }
    if let bLast = b.last, a.filter({ $0 > bLast + 48_000 }).count < 3 {
      problems.append("A stopped with B (B's last click at \(bLast), A's at \(a.last ?? 0))")
    }
    return problems
  }

  private static func beats(_ output: Data) throws -> [[String: Any]] {
    try output.split(separator: UInt8(ascii: "\n")).map {
      try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
    }
  }
}
