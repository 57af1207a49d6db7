/// How an attack heard at an audio input is placed against the click the player heard: the round
/// trip from a sample played to its sound reaching the input, and whether that round trip is the
/// click's own, heard at the input, or what the devices and a calibration say.
///
/// A microphone hears the drum and the speaker alike, so a hit on the click the player heard
/// arrives one round trip after the click was written, whatever part of that the output or the
/// input takes: the hit is on the output's frame `attack - roundTrip - offset`, where `offset` is
/// what the player asked to take off every audio hit (`--input-offset`).
public struct Placement: Equatable, Sendable {
  /// Frames from a sample played to its sound reaching the input.
  public let roundTrip: Int64
  /// Whether that is the click's own round trip, heard at the input (else the devices' and a
  /// calibration's: a microphone that does not hear the click, such as behind headphones).
  public let heard: Bool

  /// A placement as given.
  public init(roundTrip: Int64, heard: Bool) {
    self.roundTrip = roundTrip
    self.heard = heard
  }

  /// The output's frame a hit whose attack starts on the input's frame `attack` was played
  /// against, less `offset` frames.
  public func frame(ofAttackAt attack: Int64, offset: Int64) -> Int64 { attack - roundTrip - offset }
}
