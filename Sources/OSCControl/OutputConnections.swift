/// The metronome's audio output, as klick's `/klick/config` messages connect it to other programs.
///
/// It is a JACK client's port; a run that plays through ALSA has none.
public protocol OutputConnections: AnyObject, Sendable {
  /// The ports the output may connect to.
  func availablePorts() -> [String]
  /// Connects the output to `destination` as well; the error says why it could not.
  func connect(to destination: String) throws
  /// Connects the output to the ports a player hears.
  func autoconnect()
  /// Disconnects the output from every port.
  func disconnectAll()
}
