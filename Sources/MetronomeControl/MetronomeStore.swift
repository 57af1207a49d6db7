/// Where actions go and the state is read: the metronome's state machine (`MetronomeViewModel`),
/// or in tests a mock that records what was dispatched, as ReCombine's `MockStore` does.
public protocol MetronomeStore: AnyObject, Sendable {
  /// The state now, every action dispatched so far applied.
  var currentState: MetronomeState { get }
  /// Applies `action` to the state; the beats follow from the first frame not yet rendered.
  func dispatch(_ action: MetronomeAction)
  /// The beat clock's time now, in seconds: a tap for tap tempo is timed by it.
  var beatClockSeconds: Double { get }
}
