import MetronomeControl
import MetronomeTesting
import TerminalUI
import Testing

/// The recording session keeps every input in order and gives the state only what acts on it.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct RecordingSessionTests {
  @Test func everyInputIsKeptAndOnlyCommandsAndActionsReachTheStore() {
    let store = MockStore(beatClockSeconds: 2.5)
    let session = RecordingSession(store: store)
    let inputs: [SessionInput] = [
      .command(.nudgeTempo(10)), .command(.quit), .action(.setPlaying(true)), .inputClosed, .resized,
      .interrupted(signal: 15), .command(.tapTempo),
    ]
    inputs.forEach(session.receive)
    #expect(session.inputs == inputs)
    #expect(store.actions == [.nudgeTempo(by: 10), .setPlaying(true), .tapTempo(atSeconds: 2.5)])
  }
}
