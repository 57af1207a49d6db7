import ArgumentParser
import OSCControl

/// klick's OSC remote control: the port, where to say it is ready, the address listened on.
public struct RemoteOptions: ParsableArguments, Sendable {
  /// `--osc`: the UDP port to listen on.
  @Option(help: ArgumentHelp("Take klick's OSC commands on this UDP port.", valueName: "port"))
  public var osc: Int?

  /// `--osc-return`: where `/klick/ready` goes at start.
  @Option(
    help: ArgumentHelp(
      "Send /klick/ready here at start (port or URL).", valueName: "address", visibility: .fullHelpOnly),
    transform: { address in
      guard let endpoint = OSCCodec.endpoint(address) else {
        throw ValidationError("give a port or osc.udp://HOST:PORT/")
      }
      return endpoint
    })
  public var oscReturn: OSCEndpoint?

  /// `--osc-host`: the address to listen on.
  @Option(
    help: ArgumentHelp("Listen for OSC on this address (127.0.0.1).", valueName: "address", visibility: .fullHelpOnly))
  public var oscHost: String?

  /// No remote control.
  public init() {}
}
