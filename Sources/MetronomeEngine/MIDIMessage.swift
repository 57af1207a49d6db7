/// A MIDI message the metronome sends: its clock's, or a click's note.
public enum MIDIMessage: Equatable, Sendable {
  /// A MIDI clock message.
  case clock(MIDIClock.Message)
  /// A note of a click.
  case note(MIDINotes.Message)

  /// The message's bytes, at most three, and how many there are.
  public var bytes: (UInt8, UInt8, UInt8, count: Int) {
    switch self {
    case .clock(let message): return message.bytes
    case .note(let message):
      let bytes = message.bytes
      return (bytes.0, bytes.1, bytes.2, 3)
    }
  }
}
