import CLiblo
import Glibc

/// OSC packets read into messages and messages written as packets, by liblo: the one file that
/// calls it.
///
/// liblo reads and writes single messages (checking every size, string, padding and type tag);
/// bundles, which klick's server would dispatch element by element, are taken apart here.
public enum OSCCodec {
  /// Bundles nested deeper than this are refused, so that a packet cannot exhaust the stack.
  public static let deepestBundle = 8
  private static let bundleHeader = Array("#bundle".utf8) + [0]

  /// The messages in `packet`, in order: one, or each of a bundle's; throws for a packet that is
  /// not whole OSC, saying why.
  public static func messages(in packet: [UInt8]) throws(OSCPacketError) -> [OSCMessage] {
    var messages: [OSCMessage] = []
    try read(packet[...], depth: 0, into: &messages)
    return messages
  }

  private static func read(_ packet: ArraySlice<UInt8>, depth: Int, into messages: inout [OSCMessage])
    throws(OSCPacketError)
  {
    guard packet.starts(with: bundleHeader) else {
      messages.append(try message(in: Array(packet)))
      return
    }
    guard depth < deepestBundle else { throw OSCPacketError("bundles are nested deeper than \(deepestBundle)") }
    // The header and the time tag, which is not waited for: every message acts on arrival.
    var index = packet.startIndex + 16
    guard index <= packet.endIndex else { throw OSCPacketError("the bundle is cut short before its time tag") }
    while index < packet.endIndex {
      guard packet.endIndex - index >= 4 else { throw OSCPacketError("a bundle element's size is cut short") }
      let size = packet[index..<index + 4].reduce(0) { $0 << 8 | Int($1) }
      index += 4
      guard size.isMultiple(of: 4), size <= packet.endIndex - index, size > 0 else {
        throw OSCPacketError("a bundle element of \(size) bytes does not fit the \(packet.endIndex - index) left")
      }
      try read(packet[index..<index + size], depth: depth + 1, into: &messages)
      index += size
    }
  }

  /// The one message `packet` holds.
  private static func message(in packet: [UInt8]) throws(OSCPacketError) -> OSCMessage {
    var packet = packet
    var result: Int32 = 0
    let read = packet.withUnsafeMutableBytes { bytes -> OSCMessage? in
      guard let base = bytes.baseAddress, let message = lo_message_deserialise(base, bytes.count, &result) else {
        return nil
      }
      defer { lo_message_free(message) }
      let path = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      let count = Int(lo_message_get_argc(message))
      guard count > 0 else { return OSCMessage(path) }
      guard let types = lo_message_get_types(message), let values = lo_message_get_argv(message) else { return nil }
      let arguments = (0..<count).compactMap {
        argument(UInt8(bitPattern: types[$0]), values[$0].map(UnsafeRawPointer.init))
      }
      return arguments.count == count ? OSCMessage(path, arguments) : nil
    }
    guard let read else { throw OSCPacketError(libloCode: result) }
    return read
  }

  /// The argument of type `tag` that liblo read at `value`, in the machine's byte order; the types
  /// that carry no data have none.
  private static func argument(_ tag: UInt8, _ value: UnsafeRawPointer?) -> OSCArgument? {
    switch Character(Unicode.Scalar(tag)) {
    case "T": return .boolean(true)
    case "F": return .boolean(false)
    case "N": return .null
    case "I": return .impulse
    default: break
    }
    guard let value else { return nil }
    return switch Character(Unicode.Scalar(tag)) {
    case "i": .int32(value.loadUnaligned(as: Int32.self))
    case "f": .float32(value.loadUnaligned(as: Float.self))
    case "d": .double(value.loadUnaligned(as: Double.self))
    case "h": .int64(value.loadUnaligned(as: Int64.self))
    case "s": .string(String(cString: value.assumingMemoryBound(to: CChar.self)))
    case "S": .symbol(String(cString: value.assumingMemoryBound(to: CChar.self)))
    case "c": .character(UInt8(truncatingIfNeeded: value.loadUnaligned(as: Int32.self)))
    case "m": .midi(Array(UnsafeRawBufferPointer(start: value, count: 4)))
    case "t":
      .timeTag(
        UInt64(value.loadUnaligned(as: UInt32.self)) << 32
          | UInt64(value.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
    case "b":
      .blob(Array(UnsafeRawBufferPointer(start: value + 4, count: Int(max(value.loadUnaligned(as: Int32.self), 0)))))
    default: nil
    }
  }

  /// The packet that carries `message`; empty for one liblo cannot write (a blob of no bytes,
  /// which it reads but will not make).
  public static func packet(for message: OSCMessage) -> [UInt8] {
    guard let built = lo_message_new() else { return [] }
    defer { lo_message_free(built) }
    for argument in message.arguments {
      guard add(argument, to: built) else { return [] }
    }
    var size = 0
    guard let bytes = lo_message_serialise(built, message.path, nil, &size) else { return [] }
    defer { free(bytes) }
    return Array(UnsafeRawBufferPointer(start: bytes, count: size))
  }

  /// Adds `argument` to `message`; false where liblo cannot.
  private static func add(_ argument: OSCArgument, to message: lo_message) -> Bool {
    switch argument {
    case .int32(let value): lo_message_add_int32(message, value)
    case .float32(let value): lo_message_add_float(message, value)
    case .double(let value): lo_message_add_double(message, value)
    case .int64(let value): lo_message_add_int64(message, value)
    case .string(let text): lo_message_add_string(message, text)
    case .symbol(let text): lo_message_add_symbol(message, text)
    case .character(let code): lo_message_add_char(message, CChar(bitPattern: code))
    case .midi(let bytes):
      var four = (
        bytes.count > 0 ? bytes[0] : 0, bytes.count > 1 ? bytes[1] : 0, bytes.count > 2 ? bytes[2] : 0,
        bytes.count > 3 ? bytes[3] : 0
      )
      _ = withUnsafeMutableBytes(of: &four) {
        lo_message_add_midi(message, $0.baseAddress?.assumingMemoryBound(to: UInt8.self))
      }
    case .timeTag(let tag):
      lo_message_add_timetag(message, lo_timetag(sec: UInt32(tag >> 32), frac: UInt32(truncatingIfNeeded: tag)))
    case .blob(let bytes):
      guard let blob = bytes.withUnsafeBytes({ lo_blob_new(Int32(bytes.count), $0.baseAddress) }) else { return false }
      lo_message_add_blob(message, blob)
      lo_blob_free(blob)
    case .boolean(let value): _ = value ? lo_message_add_true(message) : lo_message_add_false(message)
    case .null: lo_message_add_nil(message)
    case .impulse: lo_message_add_infinitum(message)
    }
    return true
  }

  /// The host and port a reply address names, as klick reads it: a liblo URL
  /// (`osc.udp://localhost:9001/`) or a bare port (`9001`, on this machine); nil for neither.
  public static func endpoint(_ address: String) -> OSCEndpoint? {
    if let port = UInt16(address) { return OSCEndpoint(host: "localhost", port: port) }
    guard address.hasPrefix("osc.udp://") else { return nil }
    let host = lo_url_get_hostname(address)
    let port = lo_url_get_port(address)
    defer {
      free(host)
      free(port)
    }
    guard let host, let port, let number = UInt16(String(cString: port)), number > 0 else { return nil }
    return OSCEndpoint(host: String(cString: host), port: number)
  }
}

/// Why a packet is not OSC, as one line says it.
public struct OSCPacketError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong with it.
  public let description: String

  /// The error `description` says.
  public init(_ description: String) { self.description = description }

  /// The reason liblo's `code` gives.
  init(libloCode code: Int32) {
    description =
      switch code {
      case LO_EINVALIDPATH: "its address does not start with '/' or is not a padded string"
      case LO_ENOTYPE, LO_EINVALIDTYPE: "its type tags are missing or not a padded string"
      case LO_EBADTYPE: "a type tag is not one OSC knows"
      case LO_ESIZE: "it is not a multiple of 4 bytes, or not as long as its arguments"
      case LO_EINVALIDARG: "an argument is cut short or malformed"
      case LO_ETERM: "a string is not terminated"
      case LO_EPAD: "a string is not padded with zeros"
      default: "liblo could not read it (error \(code))"
      }
  }
}
