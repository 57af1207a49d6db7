import MetronomeCore
import OSCControl
import PropertyBased
import Testing

/// klick's OSC namespace against a metronome kept as a plain `KlickState`: what each message asks
/// for, and which replies go where, as klick 0.12.2 answers them.
@Suite(.timeLimit(.minutes(1)))
struct KlickNamespaceTests {
  private let sender = OSCEndpoint(host: "127.0.0.1", port: 57_519)
  private let dump = OSCEndpoint(host: "localhost", port: 9001)

  /// A namespace and the metronome it drives, which takes every request as klick would.
  private struct Harness {
    var namespace = KlickNamespace()
    var state = KlickState()
    var performed: [KlickRequest] = []

    mutating func send(_ path: String, _ arguments: [OSCArgument] = [], from sender: OSCEndpoint)
      -> KlickNamespace.Outcome
    {
      var state = self.state
      var performed = self.performed
      let outcome = namespace.handle(OSCMessage(path, arguments), from: sender, state: state) { request in
        performed.append(request)
        switch request {
        case .setTempo(let bpm): state.tempo = min(max(bpm, 1), 1_000)
        case .setMeter(let meter): state.meter = meter
        case .setPattern(_, let written): state.pattern = written
        case .start: state.isActive = true
        case .stop: state.isActive = false
        case .setKind(let kind): state.kind = kind
        default: break
        }
        return state
      }
      (self.state, self.performed) = (state, performed)
      return outcome
    }
  }

  private func messages(_ outcome: KlickNamespace.Outcome) -> [String] { outcome.replies.map(\.message.description) }

  /// klick's answer to `/klick/query s osc.udp://localhost:9001/` when it has just started.
  @Test func aFreshQueryAnswersAsKlickDoesToTheAddressGiven() {
    var harness = Harness()
    let outcome = harness.send("/klick/query", [.string(dump.description)], from: sender)
    #expect(
      messages(outcome) == [
        "/klick/config/sound ,i 0", "/klick/config/sound_volume ,ff 1.0 1.0", "/klick/config/sound_pitch ,ff 1.0 1.0",
        "/klick/config/volume ,f 1.0", "/klick/metro/type ,s \"simple\"", "/klick/metro/active ,i 0",
        "/klick/simple/tempo ,f 120.0", "/klick/simple/tempo_increment ,f 0.0", "/klick/simple/tempo_start ,f 0.0",
        "/klick/simple/tempo_limit ,f 0.0", "/klick/simple/current_tempo ,f 0.0", "/klick/simple/meter ,ii 4 4",
        "/klick/simple/pattern ,s \"\"",
      ])
    #expect(outcome.replies.allSatisfy { $0.destinations == [dump] })
    #expect(outcome.errors.isEmpty)
  }

  @Test func aQueryWithoutAnAddressAnswersTheSender() {
    var harness = Harness()
    #expect(harness.send("/klick/ping", from: sender).replies == [OSCReply(OSCMessage("/klick/pong"), to: [sender])])
    #expect(harness.send("/klick/check", from: sender).replies == [OSCReply(OSCMessage("/klick/ready"), to: [sender])])
    #expect(harness.send("/klick/metro/query", from: sender).replies.map(\.destinations) == [[sender], [sender]])
  }

  /// A map reports its file, count-in and multiplier; the JACK metronome nothing of its own.
  @Test func theQueryFollowsTheKindPlaying() {
    var harness = Harness()
    harness.state.kind = .map
    #expect(
      messages(harness.send("/klick/query", from: sender)).suffix(3) == [
        "/klick/map/filename ,s \"\"", "/klick/map/preroll ,i -1", "/klick/map/tempo_multiplier ,f 1.0",
      ])
    harness.state.kind = .jack
    #expect(messages(harness.send("/klick/query", from: sender)).count == 6)
    #expect(harness.send("/klick/jack/query", from: sender).replies.isEmpty)
  }

  /// Setters answer only the registered clients, with the value in force, until they unregister.
  @Test func settersAnswerTheRegisteredClientsWithTheValueInForce() {
    var harness = Harness()
    #expect(harness.send("/klick/simple/set_tempo", [.float32(96)], from: sender).replies.isEmpty)
    #expect(harness.performed == [.setTempo(96)])
    #expect(harness.send("/klick/register_client", from: sender).replies.isEmpty)
    #expect(harness.send("/klick/register_client", [.string("9001")], from: sender).replies.isEmpty)
    #expect(harness.namespace.clients == [sender, dump])
    #expect(
      harness.send("/klick/simple/set_tempo", [.float32(5_000)], from: sender).replies == [
        OSCReply(OSCMessage("/klick/simple/tempo", [.float32(1_000)]), to: [sender, dump])
      ])
    #expect(messages(harness.send("/klick/metro/start", from: sender)) == ["/klick/metro/active ,i 1"])
    _ = harness.send("/klick/unregister_client", from: sender)
    #expect(harness.send("/klick/metro/stop", from: sender).replies.map(\.destinations) == [[dump]])
  }

  /// A client registering again is still one client: told once of each change, and gone with
  /// one unregistering; an address given and the sender's own are kept apart.
  @Test func aClientRegisteringTwiceIsOneClient() {
    var harness = Harness()
    for _ in 0..<2 { _ = harness.send("/klick/register_client", from: sender) }
    _ = harness.send("/klick/register_client", [.string("osc.udp://127.0.0.1:57519/")], from: dump)
    #expect(harness.namespace.clients == [sender])
    #expect(harness.send("/klick/metro/start", from: sender).replies.map(\.destinations) == [[sender]])
    _ = harness.send("/klick/unregister_client", from: sender)
    #expect(harness.namespace.clients.isEmpty)
    #expect(harness.send("/klick/metro/stop", from: sender).replies.isEmpty)
  }

  /// Numbers are coerced as liblo coerces them: an integer tempo is taken as a float.
  @Test func numbersAreCoercedIntoTheTypeAskedFor() {
    var harness = Harness()
    _ = harness.send("/klick/simple/set_tempo", [.int32(100)], from: sender)
    _ = harness.send("/klick/simple/set_tempo", [.double(101.5)], from: sender)
    _ = harness.send("/klick/simple/set_meter", [.float32(7.9), .int32(8)], from: sender)
    #expect(harness.performed == [.setTempo(100), .setTempo(101.5), .setMeter(try! Meter(7, 8))])
  }

  /// Any number is taken for a tempo whatever its OSC type, as the float klick's method asks
  /// for: an integer exactly, a double at a float's precision; a meter's numerator from a float
  /// is its whole part, as liblo casts it.
  @Test func anyNumberIsCoercedAsLibloCoercesIt() async {
    await propertyCheck(input: Gen.int32(in: 1...1_000), Gen.double(in: 1...1_000)) { whole, fraction in
      var harness = Harness()
      for argument in [OSCArgument.int32(whole), .int64(Int64(whole)), .double(fraction), .float32(Float(fraction))] {
        _ = harness.send("/klick/simple/set_tempo", [argument], from: sender)
      }
      #expect(
        harness.performed == [
          .setTempo(Double(whole)), .setTempo(Double(whole)), .setTempo(Double(Float(fraction))),
          .setTempo(Double(Float(fraction))),
        ])
      let beats = Float(whole % 16 + 1) + Float(fraction - fraction.rounded(.down)) * 0.99
      _ = harness.send("/klick/simple/set_meter", [.float32(beats), .double(4)], from: sender)
      let meter = try Meter(Int(beats), 4, cap: .widest)
      #expect(harness.performed.last == .setMeter(meter), "\(beats)")
    }
  }

  /// Numbers that fit no 64-bit integer (from 9.2e18 on, and what is not finite) are numbers of
  /// no type: a tempo sent so is an unknown message, as a string would be.
  @Test func aNumberBeyondSixtyFourBitsIsNoNumber() {
    var harness = Harness()
    for huge in [9.2e18, 1e19, -1e19, .infinity, .nan] {
      let outcome = harness.send("/klick/simple/set_meter", [.double(huge), .int32(4)], from: sender)
      #expect(outcome.errors == ["unknown message: /klick/simple/set_meter ,di"], "\(huge)")
    }
    #expect(harness.performed.isEmpty)
    _ = harness.send("/klick/simple/set_tempo", [.double(9.1e18)], from: sender)
    #expect(harness.performed == [.setTempo(Double(Float(9.1e18)))])
  }

  /// `/klick/config/connect` takes one port to sixteen in one message, each a request to connect
  /// them; more is a message it does not know.
  @Test func connectTakesOneToSixteenPorts() {
    var harness = Harness()
    let ports = (1...17).map { "system:playback_\($0)" }
    _ = harness.send("/klick/config/connect", [.string(ports[0])], from: sender)
    _ = harness.send("/klick/config/connect", ports.prefix(16).map(OSCArgument.string), from: sender)
    let tooMany = harness.send("/klick/config/connect", ports.map(OSCArgument.string), from: sender)
    #expect(harness.performed == [.connect(ports: [ports[0]]), .connect(ports: Array(ports.prefix(16)))])
    #expect(tooMany.errors == ["unknown message: /klick/config/connect ,\(String(repeating: "s", count: 17))"])
  }

  /// A meter is taken as written: 5/4 needs no cap.
  @Test func aMeterIsSetAsWritten() throws {
    var harness = Harness()
    _ = harness.send("/klick/register_client", from: sender)
    #expect(
      messages(harness.send("/klick/simple/set_meter", [.int32(5), .int32(4)], from: sender)) == [
        "/klick/simple/meter ,ii 5 4"
      ])
    let refused = harness.send("/klick/simple/set_meter", [.int32(7), .int32(3)], from: sender)
    #expect(refused.replies.isEmpty)
    #expect(refused.errors.count == 1)
    #expect(harness.performed == [.setMeter(try Meter(5, 4, cap: .widest))])
  }

  @Test func errorsAreLinesForStandardErrorNeverReplies() {
    var harness = Harness()
    _ = harness.send("/klick/register_client", from: sender)
    let unknown = harness.send("/klick/bogus", [.int32(1)], from: sender)
    #expect(unknown.errors == ["unknown message: /klick/bogus ,i"] && unknown.replies.isEmpty)
    let wrongType = harness.send("/klick/simple/set_tempo", [.string("fast")], from: sender)
    #expect(wrongType.errors == ["unknown message: /klick/simple/set_tempo ,s"])
    let wrongKind = harness.send("/klick/map/query", from: sender)
    #expect(wrongKind.errors == ["/klick/map/query: function not available for current metronome type"])
    let badPattern = harness.send("/klick/simple/set_pattern", [.string("X?x")], from: sender)
    #expect(badPattern.errors.count == 1 && badPattern.replies.isEmpty)
    let badAddress = harness.send("/klick/query", [.string("somewhere")], from: sender)
    #expect(badAddress.errors.count == 1 && badAddress.replies.isEmpty)
    #expect(harness.performed.isEmpty)
  }

  /// A pattern must have a level for each beat of the bar, as klick says; an empty one is the
  /// standard pattern.
  @Test func aPatternHasALevelForEachBeatOrIsEmpty() {
    var harness = Harness()
    let tooLong = harness.send("/klick/simple/set_pattern", [.string("X.x..")], from: sender)
    #expect(tooLong.errors == ["/klick/simple/set_pattern: pattern length doesn't match number of beats"])
    _ = harness.send("/klick/simple/set_pattern", [.string("X.x.")], from: sender)
    _ = harness.send("/klick/simple/set_pattern", [.string("")], from: sender)
    #expect(
      harness.performed == [
        .setPattern(try! AccentPattern(parsing: "X.x."), written: "X.x."), .setPattern(nil, written: ""),
      ])
  }

  /// The tempo heard is told to the clients when it changes, once per change.
  @Test func theCurrentTempoIsToldWhenItChanges() {
    var namespace = KlickNamespace()
    var state = KlickState()
    #expect(namespace.currentTempoChange(in: state).isEmpty)
    _ = namespace.handle(OSCMessage("/klick/register_client"), from: sender, state: state) { _ in state }
    state.currentTempo = 96
    #expect(
      namespace.currentTempoChange(in: state) == [
        OSCReply(OSCMessage("/klick/simple/current_tempo", [.float32(96)]), to: [sender])
      ])
    #expect(namespace.currentTempoChange(in: state).isEmpty)
  }
}
