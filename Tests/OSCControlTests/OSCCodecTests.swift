import Foundation
import OSCControl
import Testing

/// Packets as liblo reads and writes them, and bundles as the codec takes them apart: no socket.
@Suite(.timeLimit(.minutes(1)))
struct OSCCodecTests {
  /// `/klick/simple/set_tempo ,f 96` as OSC 1.0 lays it out: the padded address, the padded type
  /// tags, a big-endian float.
  private static let setTempo: [UInt8] =
    Array("/klick/simple/set_tempo".utf8) + [0] + Array(",f".utf8) + [0, 0] + [0x42, 0xC0, 0, 0]

  @Test func aMessageIsWrittenAsOSCLaysItOut() {
    #expect(OSCCodec.packet(for: OSCMessage("/klick/simple/set_tempo", [.float32(96)])) == Self.setTempo)
  }

  @Test func aMessageIsReadFromItsPacket() throws {
    #expect(try OSCCodec.messages(in: Self.setTempo) == [OSCMessage("/klick/simple/set_tempo", [.float32(96)])])
  }

  @Test func everyTypeTagSurvivesTheRoundTrip() throws {
    let message = OSCMessage(
      "/metronome/all",
      [
        .int32(-7), .float32(2.5), .double(-0.125), .int64(1 << 40), .string("X.x"), .symbol("sym"),
        .blob([1, 2, 3]), .character(65), .midi([0x90, 60, 100, 0]), .timeTag(0x1_0000_0002), .boolean(true),
        .boolean(false), .null, .impulse, .string(String(repeating: "a", count: 60_000)),
      ])
    #expect(try OSCCodec.messages(in: OSCCodec.packet(for: message)) == [message])
    #expect(message.typeTags == "ifdhsSbcmtTFNIs")
  }

  /// A blob of no bytes is read, as OSC allows it; liblo will not write one, so its packet is
  /// empty rather than a message without it.
  @Test func anEmptyBlobIsReadButNotWritten() throws {
    let packet = Array("/b".utf8) + [0, 0] + Array(",b".utf8) + [0, 0] + [0, 0, 0, 0]
    #expect(try OSCCodec.messages(in: packet) == [OSCMessage("/b", [.blob([])])])
    #expect(OSCCodec.packet(for: OSCMessage("/b", [.int32(1), .blob([])])).isEmpty)
  }

  @Test func whatIsNotWholeOSCIsRefusedWithAReason() throws {
    let cases: [(String, [UInt8])] = [
      ("empty", []),
      ("cut short", Array(Self.setTempo.dropLast())),
      ("not a multiple of four", Self.setTempo + [0]),
      ("type tags without their comma", Array("/a".utf8) + [0, 0] + Array("f".utf8) + [0, 0, 0, 0x42, 0xC0, 0, 0]),
      ("an unknown type tag", Array("/a".utf8) + [0, 0] + Array(",Q".utf8) + [0, 0]),
      ("a string left open", Array("/a".utf8) + [0, 0] + Array(",s".utf8) + [0, 0] + Array("abcd".utf8)),
    ]
    for (name, packet) in cases {
      #expect(throws: OSCPacketError.self, "\(name)") { try OSCCodec.messages(in: packet) }
    }
  }

  /// A bundle's messages come out in order, nested bundles included; its time tag is not waited for.
  @Test func aBundleGivesItsMessagesInOrder() throws {
    let ping = OSCCodec.packet(for: OSCMessage("/klick/ping"))
    let inner = bundle([ping])
    let packet = bundle([Self.setTempo, inner, ping])
    #expect(
      try OSCCodec.messages(in: packet) == [
        OSCMessage("/klick/simple/set_tempo", [.float32(96)]), OSCMessage("/klick/ping"), OSCMessage("/klick/ping"),
      ])
    #expect(try OSCCodec.messages(in: bundle([])) == [])
  }

  @Test func aBundleThatDoesNotHoldTogetherIsRefused() throws {
    let ping = OSCCodec.packet(for: OSCMessage("/klick/ping"))
    var overlong = bundle([ping])
    overlong[19] += 4
    #expect(throws: OSCPacketError.self) { try OSCCodec.messages(in: overlong) }
    #expect(throws: OSCPacketError.self) { try OSCCodec.messages(in: Array(bundle([ping]).prefix(12))) }
    var nested = ping
    for _ in 1...OSCCodec.deepestBundle { nested = bundle([nested]) }
    #expect(try OSCCodec.messages(in: nested) == [OSCMessage("/klick/ping")])
    nested = bundle([nested])
    #expect(throws: OSCPacketError("bundles are nested deeper than 8")) { try OSCCodec.messages(in: nested) }
  }

  /// A bundle's element may be as long as what is left, not a byte more; an element of size 0,
  /// or a size cut short, is refused; a bundle of the header and time tag alone holds nothing.
  @Test func aBundlesElementsFitExactly() throws {
    let ping = OSCCodec.packet(for: OSCMessage("/klick/ping"))
    #expect(try OSCCodec.messages(in: bundle([ping])) == [OSCMessage("/klick/ping")])
    let empty = bundle([]) + [0, 0, 0, 0]
    #expect(throws: OSCPacketError("a bundle element of 0 bytes does not fit the 0 left")) {
      try OSCCodec.messages(in: empty)
    }
    for cut in 1...3 {
      #expect(throws: OSCPacketError.self) { try OSCCodec.messages(in: bundle([]) + Array(repeating: 0, count: cut)) }
    }
    #expect(throws: OSCPacketError.self) { try OSCCodec.messages(in: Array(bundle([]).prefix(15))) }
    #expect(try OSCCodec.messages(in: Array(bundle([]).prefix(16))) == [])
    // A size is four bytes, the most significant first: an element of 65 796 bytes (0x0001_0104).
    let long = OSCMessage("/long", [.string(String(repeating: "x", count: 65_780))])
    #expect(OSCCodec.packet(for: long).count == 65_796)
    #expect(
      try OSCCodec.messages(in: bundle([OSCCodec.packet(for: long), ping])) == [long, OSCMessage("/klick/ping")])
  }

  /// A MIDI argument of fewer than four bytes is padded with zeros, of more cut to four.
  @Test func aMIDIArgumentIsFourBytes() throws {
    for (given, sent) in [
      ([], [0, 0, 0, 0]), ([0x90], [0x90, 0, 0, 0]), ([0x90, 60], [0x90, 60, 0, 0]),
      ([0x90, 60, 100], [0x90, 60, 100, 0]), ([0x90, 60, 100, 1], [0x90, 60, 100, 1]),
      ([0x90, 60, 100, 1, 2], [0x90, 60, 100, 1]),
    ] as [([UInt8], [UInt8])] {
      let read = try OSCCodec.messages(in: OSCCodec.packet(for: OSCMessage("/m", [.midi(given)])))
      #expect(read == [OSCMessage("/m", [.midi(sent)])], "\(given)")
    }
  }

  /// Writing and reading packets, blobs and reply addresses keeps no memory: after a warm-up, a
  /// hundred thousand more of each leave the process's resident memory within 2 MB, where a
  /// message not freed grows it by about 18 MB and a reply address's parts by about 6.
  ///
  /// Resident memory is the whole process's: like every time-limited test here it is measured
  /// with nothing else running beside it (`swift test --no-parallel`, as scripts/test runs).
  @Test func packetsKeepNoMemory() throws {
    let message = OSCMessage("/metronome/all", [.string("X.x"), .blob([1, 2, 3, 4, 5]), .int32(3)])
    let roundTrip = { (count: Int) in
      for _ in 0..<count {
        _ = try OSCCodec.messages(in: OSCCodec.packet(for: message))
        _ = OSCCodec.endpoint("osc.udp://localhost:9001/")
      }
    }
    try roundTrip(20_000)
    let before = try Self.residentBytes()
    try roundTrip(100_000)
    let grown = try Self.residentBytes() - before
    #expect(grown < 2 << 20, "resident memory grew by \(grown) bytes")
  }

  /// The process's resident memory, from /proc/self/statm.
  private static func residentBytes() throws -> Int {
    let fields = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
    let pages = try #require(fields.count > 1 ? Int(fields[1]) : nil)
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  /// A reply address as klick takes it: a liblo URL, or a bare port on this machine.
  @Test func replyAddressesAreURLsOrPorts() {
    #expect(OSCCodec.endpoint("osc.udp://localhost:9001/") == OSCEndpoint(host: "localhost", port: 9001))
    #expect(OSCCodec.endpoint("osc.udp://127.0.0.1:57519/") == OSCEndpoint(host: "127.0.0.1", port: 57_519))
    #expect(OSCCodec.endpoint("9001") == OSCEndpoint(host: "localhost", port: 9001))
    #expect(OSCCodec.endpoint("osc.tcp://localhost:9001/") == nil)
    #expect(OSCCodec.endpoint("osc.udp://localhost:0/") == nil)
    #expect(OSCCodec.endpoint("osc.udp://localhost:1/") == OSCEndpoint(host: "localhost", port: 1))
    #expect(OSCCodec.endpoint("nine") == nil)
  }

  /// A bundle of `elements`, time tag "immediately".
  private func bundle(_ elements: [[UInt8]]) -> [UInt8] {
    var bytes = Array("#bundle".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 1]
    for element in elements {
      let size = UInt32(element.count)
      bytes += [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + element
    }
    return bytes
  }
}
