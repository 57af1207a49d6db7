import Dispatch
import Glibc

/// A UDP socket bound to one address and port: OSC packets arrive on it, and replies leave from
/// it, so that a client that answers the sender reaches it (as klick's replies come from its port).
public final class OSCSocket: @unchecked Sendable {
  /// The address and port it is bound to; the port the system chose when 0 was asked for.
  public let endpoint: OSCEndpoint
  private let descriptor: Int32
  private let queue = DispatchQueue(label: "metronome.osc")
  private var source: (any DispatchSourceRead)?
  /// The largest packet read; a larger one is cut, and then refused as not whole OSC.
  private static let largestPacket = 65_536

  /// A socket bound to `host` (an IPv4 address or a name for one) and `port`; throws a one-line
  /// error saying what to do when it cannot be, such as for a port in use.
  public init(host: String, port: UInt16) throws(OSCSocketError) {
    guard var address = Self.resolve(host, port: port) else {
      throw OSCSocketError("cannot listen for OSC on '\(host)': it is not an IPv4 address of this machine")
    }
    let opened = socket(
      AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard opened >= 0 else { throw OSCSocketError("cannot open a UDP socket for OSC: \(Self.systemError())") }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(opened, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      let reason = errno == EADDRINUSE ? "it is in use: choose another with --osc PORT" : Self.systemError()
      close(opened)
      throw OSCSocketError("cannot listen for OSC on \(host) port \(port): \(reason)")
    }
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(opened, $0, &length) }
    }
    descriptor = opened
    endpoint = OSCEndpoint(host: Self.text(of: actual.sin_addr), port: UInt16(bigEndian: actual.sin_port))
  }

  deinit {
    source?.cancel()
    close(descriptor)
  }

  /// Hands each packet that arrives, with its sender, to `receive`, on a queue of its own.
  public func startReceiving(_ receive: @escaping @Sendable ([UInt8], OSCEndpoint) -> Void) {
    let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
    source.setEventHandler { [descriptor] in
      var bytes = [UInt8](repeating: 0, count: Self.largestPacket)
      while true {
        var sender = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = withUnsafeMutablePointer(to: &sender) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            recvfrom(descriptor, &bytes, bytes.count, 0, $0, &length)
          }
        }
        guard count >= 0 else { return }
        receive(
          Array(bytes[..<count]),
          OSCEndpoint(host: Self.text(of: sender.sin_addr), port: UInt16(bigEndian: sender.sin_port)))
      }
    }
    self.source = source
    source.resume()
  }

  /// Sends `packet` to `destination` from this socket; a destination that cannot be reached is
  /// skipped, as UDP would lose it anyway.
  public func send(_ packet: [UInt8], to destination: OSCEndpoint) {
    guard var address = Self.resolve(destination.host, port: destination.port) else { return }
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        sendto(descriptor, packet, packet.count, Int32(MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
  }

  /// The IPv4 address `host` names, with `port`; nil if it names none.
  private static func resolve(_ host: String, port: UInt16) -> sockaddr_in? {
    var hints = addrinfo()
    hints.ai_family = AF_INET
    hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, nil, &hints, &found) == 0, let found else { return nil }
    defer { freeaddrinfo(found) }
    guard let first = found.pointee.ai_addr else { return nil }
    var address = first.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
    address.sin_port = port.bigEndian
    return address
  }

  private static func text(of address: in_addr) -> String {
    var address = address
    var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
    inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func systemError() -> String { String(cString: strerror(errno)) }
}

/// Why OSC cannot listen, as one line says it.
public struct OSCSocketError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong and what to do.
  public let description: String

  /// The error `description` says.
  public init(_ description: String) { self.description = description }
}
