import OSCControl

/// klick's OSC remote control, asked for: where to listen and where to say it is ready.
public struct RemoteRequest: Sendable, Equatable {
  /// The address listened on: the loopback interface unless `--osc-host` names another.
  public let host: String
  /// The UDP port listened on; 0 lets the system choose one (klick's `-R` without `-o`).
  public let port: UInt16
  /// Where `/klick/ready` goes at start, if anywhere.
  public let readyTo: OSCEndpoint?
  /// Whether the run starts stopped, as klick's does with OSC.
  public let startsStopped: Bool

  /// The remote control the options ask for; nil for none.
  ///
  /// Throws a usage error for a port out of range, `--osc-host` alone, or a virtual run, which no
  /// one can control as it plays. klick's command line starts it stopped (`startsStopped`).
  public init?(_ options: RemoteOptions, virtual: Bool, startsStopped: Bool) throws(RunError) {
    guard options.osc != nil || options.oscReturn != nil else {
      if options.oscHost != nil { throw .usage("--osc-host says where OSC listens: add --osc PORT") }
      return nil
    }
    if virtual { throw .usage("OSC controls a live run: drop --virtual") }
    if let port = options.osc, !(1...65_535).contains(port) { throw .usage("--osc must be a UDP port from 1 to 65535") }
    host = options.oscHost ?? "127.0.0.1"
    self.startsStopped = startsStopped
    port = UInt16(options.osc ?? 0)
    readyTo = options.oscReturn
  }
}
