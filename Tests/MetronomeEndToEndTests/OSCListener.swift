import Foundation
import OSCControl
import XCTest

/// A socket of the test's own on the loopback interface that keeps the OSC messages reaching it,
/// and from where; and liblo's own `oscsend` to talk to metronome with.
final class OSCListener: @unchecked Sendable {
  let socket: OSCSocket
  private let lock = NSLock()
  private var received: [(message: OSCMessage, from: OSCEndpoint)] = []
  private let arrived = DispatchSemaphore(value: 0)
  private static let oscsendPath = URL(fileURLWithPath: "/usr/bin/oscsend")

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

  /// Waits until the messages received meet `condition`, giving up when five seconds pass with
  /// none arriving; whether they do.
  func waitUntil(_ condition: ([OSCMessage]) -> Bool) -> Bool {
    while !condition(messages.map(\.message)) {
      guard arrived.wait(timeout: .now() + 5) == .success else { return condition(messages.map(\.message)) }
    }
    return true
  }

  /// Where the first message came from, once one has: a metronome's (or klick's) `/klick/ready`
  /// to `--osc-return`, which says the port it listens on; throws when none comes within 5 s.
  func readySender() throws -> OSCEndpoint {
    XCTAssertTrue(waitUntil { !$0.isEmpty }, "no /klick/ready came")
    return try XCTUnwrap(messages.first?.from, "no /klick/ready came")
  }

  /// Sends the message `arguments` (a path, type tags and values, as oscsend takes them) to
  /// `endpoint` with liblo's `oscsend`.
  static func oscsend(_ endpoint: OSCEndpoint, _ arguments: [String]) throws {
    let result = try ChildProcess.run(oscsendPath, [endpoint.host, "\(endpoint.port)"] + arguments)
    XCTAssertEqual(result.status, 0, result.standardError)
  }
}
