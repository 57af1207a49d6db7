/// A UDP address OSC replies go to: a host name or address, and a port.
public struct OSCEndpoint: Hashable, Sendable, CustomStringConvertible {
  /// The host, as given (`localhost`, `127.0.0.1`).
  public let host: String
  /// The UDP port.
  public let port: UInt16

  /// The endpoint `host`:`port`.
  public init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }

  /// As liblo writes it: `osc.udp://127.0.0.1:9001/`.
  public var description: String { "osc.udp://\(host):\(port)/" }
}
