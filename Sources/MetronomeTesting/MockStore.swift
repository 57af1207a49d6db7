import MetronomeControl
import MetronomeCore
import Synchronization

/// A store that records what is dispatched instead of applying it, as ReCombine's `MockStore`
/// does; read, it is the state a test gave it.
public final class MockStore: MetronomeStore {
  private let recorded: Mutex<(actions: [MetronomeAction], state: MetronomeState)>
  /// The beat clock's time a tap is timed at.
  public let beatClockSeconds: Double

  /// A store in `state` (4/4 at 120, paused, unless given), its beat clock at `beatClockSeconds`.
  public init(state: MetronomeState? = nil, beatClockSeconds: Double = 0) {
    let initial = state ?? MetronomeState(tempo: .standard, meter: .fourFour, isPlaying: false, cap: .denominator)
    recorded = Mutex(([], initial))
    self.beatClockSeconds = beatClockSeconds
  }

  /// Records `action`; the state stays as given.
  public func dispatch(_ action: MetronomeAction) { recorded.withLock { $0.actions.append(action) } }

  /// The state given.
  public var currentState: MetronomeState { recorded.withLock { $0.state } }

  /// What was dispatched, in order.
  public var actions: [MetronomeAction] { recorded.withLock { $0.actions } }
}
