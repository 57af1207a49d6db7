import MetronomeCore
import TerminalUI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ProgressLineTests {
  @Test func showsShareAndSeconds() {
    #expect(ProgressLine.text(frames: 24_000, total: 96_000, sampleRate: .standard) == "exporting: 25% (0.5 of 2 s)")
    #expect(ProgressLine.text(frames: 48_000, total: nil, sampleRate: .standard) == "exporting: 1 s")
  }
}
