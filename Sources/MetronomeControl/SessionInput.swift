import MetronomeCore
import PracticeListening
import TerminalUI

/// What reaches a running session from outside it: the one seam for control.
///
/// Every source feeds a session through this one type, on its main queue: typed keys and the
/// system's events come from `SystemEvents`, klick's OSC messages from `OSCRemoteControl`, the
/// player's hits and what an audio input noticed from the inputs listened to; a new source is one
/// more type that turns what it receives into these. Commands that must land on an exact audio
/// frame (a key script's) cannot wait for the main queue: they are scheduled on the engine's clock
/// instead, and reach the state machine through the same `MetronomeStore.perform(_:)`.
public enum SessionInput: Hashable, Sendable {
  /// A command, as a key asks for it: `.quit` ends the run, the others change the state.
  case command(KeyCommand)
  /// An action on the state, as a remote control asks for it: a value set rather than a step.
  case action(MetronomeAction)
  /// Standard input reached its end: nothing more will be typed.
  case inputClosed
  /// The terminal changed size.
  case resized
  /// A signal asked the process to end.
  case interrupted(signal: Int32)
  /// Something the run listens to stopped (a capture device), saying what and what to do: the run
  /// ends with status 1, its hits scored and reported so far.
  case sourceFailed(String)
  /// A hit the player played, its frame already where the clicks are heard: scored, and shown
  /// once it is decided.
  case hit(Hit)
  /// What an audio input noticed of itself (cut at full scale, the click's path changed): the
  /// summary and the display say so.
  case noticed(InputNotice)

  /// The commands the keys in one read of typed `bytes` are bound to; unbound keys are dropped.
  public static func typed(_ bytes: [UInt8]) -> [SessionInput] {
    KeyDecoder().decode(bytes).compactMap { KeyBindings.command(for: $0).map(SessionInput.command) }
  }
}

/// A receiver of session inputs, on the main actor: a running session.
@MainActor
public protocol SessionInputReceiver: AnyObject, Sendable {
  /// Acts on `input`.
  func receive(_ input: SessionInput)
}
