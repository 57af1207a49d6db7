/// A failed ALSA call: what metronome was doing, ALSA's own message for the error code, and what
/// the user can do about it.
public struct ALSAError: Error, Equatable, CustomStringConvertible {
  /// What failed, in words: "open", "set the sample rate", "write".
  public let operation: String
  /// The PCM device's name; nil for the MIDI sequencer.
  public let device: String?
  /// ALSA's negative error code.
  public let code: Int32
  /// ALSA's message for `code` (`snd_strerror`).
  public let message: String
  /// What to try next.
  public let hint: String

  /// An error with ALSA's message already looked up.
  public init(operation: String, device: String?, code: Int32, message: String, hint: String) {
    self.operation = operation
    self.device = device
    self.code = code
    self.message = message
    self.hint = hint
  }

  /// How it reads in messages and test failures.
  public var description: String {
    guard let device else {
      return operation == "open"
        ? "no ALSA MIDI sequencer (\(message)): \(hint)"
        : "the ALSA sequencer could not \(operation) (\(message)): \(hint)"
    }
    if operation == "open" || operation == "open for capture" {
      return "no ALSA \(operation == "open" ? "playback" : "capture") device '\(device)' (\(message)): \(hint)"
    }
    return "ALSA device '\(device)' could not \(operation) (\(message)): \(hint)"
  }

  /// The hint for a device that does not open.
  static let noDeviceHint = "no sound card? try --device NAME, `metronome devices`, or --silent"

  /// The hint for a capture device that does not open.
  static let noCaptureDeviceHint = "try --listen-device NAME with one of `arecord -L`, or --jack"

  /// The error for a run that must be heard (one that listens to the player, where `--silent`
  /// has no place): a device that does not open says to try JACK rather than silence.
  public var forARunThatMustBeHeard: ALSAError {
    guard hint == Self.noDeviceHint else { return self }
    return ALSAError(
      operation: operation, device: device, code: code, message: message,
      hint: "no sound card? listening needs one: try --device NAME, `metronome devices`, or --jack")
  }
}
