/// The click's sound as the run plays it, which klick's `/klick/config/set_sound` and
/// `set_sound_pitch` change: the output's renderer, through the run that made it.
@MainActor
public protocol ClickSounds: AnyObject {
  /// The sound playing, and the pitch of the accented click and of the others.
  var inForce: (sound: KlickState.Sound, pitch: KlickState.SoundPair) { get }
  /// Plays `sound` at `pitch` from the next period; throws why it cannot, and the sound in force
  /// stays.
  func play(_ sound: KlickState.Sound, pitch: KlickState.SoundPair) throws
}
