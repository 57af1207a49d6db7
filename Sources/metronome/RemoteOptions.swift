import ArgumentParser
import MetronomeRun

/// klick's OSC remote control: the port, where to say it is ready, the address listened on.
struct RemoteOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Take klick's OSC commands on this UDP port.", valueName: "port"))
  var osc: Int?

  @Option(
    help: ArgumentHelp(
      "Send /klick/ready here at start (port or URL).", valueName: "address", visibility: .fullHelpOnly))
  var oscReturn: String?

  @Option(
    help: ArgumentHelp("Listen for OSC on this address (127.0.0.1).", valueName: "address", visibility: .fullHelpOnly))
  var oscHost: String?

  /// The values given.
  var options: RequestOptions.Remote {
    var remote = RequestOptions.Remote()
    (remote.osc, remote.oscReturn, remote.oscHost) = (osc, oscReturn, oscHost)
    return remote
  }
}
