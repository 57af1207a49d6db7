import MetronomeCore

/// What the display and the other outputs read from the state: pure selectors, each a function
/// of the state alone, so that they are tested without a scheduler.
extension MetronomeState {
  /// The tempo as shown: "120 BPM", "97.5 BPM".
  public var tempoText: String { tempo.text }

  /// The numerator as shown, after clamping: "4".
  public var numeratorText: String { "\(meter.numerator)" }

  /// The denominator as shown: "4".
  public var denominatorText: String { "\(meter.denominator)" }

  /// The time signature as shown, after clamping: "4/4".
  public var signatureText: String { meter.signature }

  /// The second voice's clicks per bar while it sounds; nil when there is none or it is muted.
  public var soundingPolyrhythm: Int? { isPolyrhythmMuted ? nil : polyrhythm }

  /// The song of the setlist playing or chosen, from 0; nil without a setlist.
  public var songPlaying: Int? { programme.setlist == nil ? nil : programme.song }
}
