import MetronomeControl
import TerminalUI

/// A session that keeps every input it is given, in order, and carries out the ones that act on
/// the state as a running session does: a command (but quit) and an action go to `store`.
///
/// What a session does beyond the state (ending, scoring a hit, redrawing) is for a test of the
/// session itself; a control that feeds one is tested against this.
@MainActor
public final class RecordingSession: SessionInputReceiver {
  /// Where commands and actions go.
  public let store: any MetronomeStore
  /// Every input given, in order.
  public private(set) var inputs: [SessionInput] = []

  /// A session acting on `store`.
  public init(store: any MetronomeStore) { self.store = store }

  /// Keeps `input`, and gives the state what it asks.
  public func receive(_ input: SessionInput) {
    inputs.append(input)
    switch input {
    case .command(.quit): break
    case .command(let command): store.perform(command)
    case .action(let action): store.dispatch(action)
    default: break
    }
  }
}
