/// Whether the input has lost the echo the clicks should make (a microphone unplugged, muted).
///
/// Lost is far less heard than predicted, a hundredth of it in one segment or a twentieth
/// segment after segment (each segment weighing 0.7 of the one after it), where the segment was
/// not heard alone (which is the echo turned down, not lost). A drum can cancel much of one
/// segment's echo, never a click's.
struct EchoLoss {
  /// The energy heard and predicted in the latest segments an echo was predicted in.
  private var recentHeard: Float = 0
  private var recentEcho: Float = 0

  /// Notes a segment that heard `heard` where an echo of `echo` was predicted: only where one
  /// was (more than 1e-12), so that a loss goes on through the silence between clicks.
  mutating func note(heard: Float, echo: Float) {
    guard echo > 1e-12 else { return }
    recentHeard = 0.7 * recentHeard + heard
    recentEcho = 0.7 * recentEcho + echo
  }

  /// Whether a segment that heard `heard` where `echo` was predicted, heard `alone` or not, has
  /// lost the echo, the segments before it noted.
  func isLost(heard: Float, echo: Float, alone: Bool) -> Bool {
    !alone && (heard < 0.01 * echo || recentHeard < 0.05 * recentEcho)
  }
}
