/// What an audio input the metronome listens to noticed of itself, for the player to read: what
/// it heard of the click changing, or the input failing.
public enum InputNotice: Hashable, Sendable {
  /// The input was cut at full scale.
  case clipped
  /// The click came back louder (softer where negative) by so many dB, a volume turned, and its
  /// echo was followed.
  case clickLevel(decibels: Double)
  /// The click's direct sound came so many ms later (earlier where negative): a microphone or a
  /// speaker moved. Hits are placed by it from then on.
  case clickMoved(milliseconds: Double)
  /// The echo of one of the clicks was learned again: two of its clicks were heard alike, and
  /// unlike what had been learned (a microphone or a speaker moved).
  case echoLearnedAgain
  /// The input stopped hearing the click it heard before (a microphone unplugged or muted).
  case wentSilent
  /// An attack was heard where the output glitched (it ran dry, and what it played next came
  /// late): not scored, since the click there was not where it was written.
  case heardWhereTheOutputGlitched
  /// The inputs went unheard for so many ms where they lost frames (xruns: cycles a sound server
  /// ran without the metronome, a capture device that dropped what it was not read in time), and
  /// the microphone while it is heard anew after: a hit played then never reached it.
  case unheard(milliseconds: Double)
}
