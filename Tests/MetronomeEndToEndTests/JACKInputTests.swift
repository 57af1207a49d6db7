import Dispatch
import JACKOutput
import MetronomeAudio
import MetronomeTesting
import Synchronization
import XCTest

/// What a JACK client of metronome's hears on an audio input, on a dummy server, from a client
/// that writes each cycle's number into every frame of it.
final class JACKInputTests: TimeLimitedTestCase {
  /// A cycle held until the server has run the next one (as a stalled machine holds it) still
  /// hears its own input: the numbering client has by then written the next cycle's number into
  /// the buffer the input was read from.
  func testACycleHeldPastItsEndHearsTheInputItStartedWith() throws {
    let server = try JACKDummyServer()
    defer { server.stop() }
    setenv("JACK_DEFAULT_SERVER", server.name, 1)
    defer { unsetenv("JACK_DEFAULT_SERVER") }

    let numbering = try JACKSink(clientName: "numbering", connections: [])
    defer { numbering.stop() }
    let numbered = NumberedCycles()
    try numbering.start(rendering: { frames in numbered.write(frames, into: numbering) }, failed: { _ in })

    let held = try JACKSink(clientName: "held", connections: [])
    defer { held.stop() }
    let input = try held.addAudioInput(named: "mic", connections: ["numbering:click"])
    let heldCycle = HeldCycle(ended: expectation(description: "the held cycle ended"))
    try held.start(
      rendering: { _ in heldCycle.render(hearing: held.audio(of: input), while: numbered) }, failed: { _ in })
    held.afterEachCycle { _ in heldCycle.rendered(hearing: held.audio(of: input)) }

    wait(for: [heldCycle.ended], timeout: 10)
    guard let heard = heldCycle.heard.withLock({ $0 }) else { return }
    XCTAssertGreaterThan(heard.asStarted, 0, "the numbering client's cycles never reached the input")
    XCTAssertTrue(heard.nextCycleRan, "the server ran no cycle while the client was held")
    XCTAssertEqual(heard.asRendered, heard.asStarted, "the held cycle heard the next cycle's input as its own")
  }
}

/// Writes the number of each cycle it is called in (1, 2, …) into every frame, and tells a waiter
/// when it has.
private final class NumberedCycles: Sendable {
  private let written = Atomic<Int>(0)
  private let wrote = DispatchSemaphore(value: 0)

  /// Cycles written so far.
  var count: Int { written.load(ordering: .acquiring) }

  /// Writes the next cycle's number into `frames` frames of `sink`.
  func write(_ frames: Int, into sink: JACKSink) {
    let number = written.load(ordering: .relaxed) + 1
    let sound = [Float](repeating: Float(number), count: frames)
    // A JACK client's write does not throw: it writes into the cycle's buffer.
    try? sink.write(
      RenderedPeriod(
        frames: frames, spans: [.init(offset: 0, sound: 0, clickPosition: 0, count: frames)][...], sounds: [sound]))
    written.store(number, ordering: .releasing)
    wrote.signal()
  }

  /// Waits until a cycle after `cycle` is written, for up to a second; whether one was.
  func waitForACycle(after cycle: Int) -> Bool {
    while count <= cycle {
      guard wrote.wait(timeout: .now() + 1) == .success else { return false }
    }
    return true
  }
}

/// The held client's cycles: its 20th is held until the numbering client has written the next,
/// and what the input held as it started and as it was rendered are given as the result.
private final class HeldCycle: @unchecked Sendable {
  /// What the 20th cycle heard: the first sample as it started and once rendered, and whether the
  /// numbering client wrote its next cycle meanwhile.
  struct Heard: Sendable {
    let asStarted: Float
    let asRendered: Float
    let nextCycleRan: Bool
  }

  /// Fulfilled once the 20th cycle is rendered, what it heard kept.
  let ended: XCTestExpectation
  let heard = Mutex<Heard?>(nil)
  // Touched only on the held client's process thread.
  private var cycles = 0
  private var asStarted: Float = 0
  private var nextCycleRan = false

  init(ended: XCTestExpectation) { self.ended = ended }

  func render(hearing input: UnsafeBufferPointer<Float>, while numbering: NumberedCycles) {
    cycles += 1
    guard cycles == 20 else { return }
    asStarted = input.first ?? 0
    nextCycleRan = numbering.waitForACycle(after: numbering.count)
  }

  func rendered(hearing input: UnsafeBufferPointer<Float>) {
    guard cycles == 20 else { return }
    heard.withLock { $0 = Heard(asStarted: asStarted, asRendered: input.first ?? 0, nextCycleRan: nextCycleRan) }
    ended.fulfill()
  }
}
