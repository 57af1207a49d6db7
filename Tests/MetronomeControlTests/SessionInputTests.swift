import MetronomeControl
import TerminalUI
import Testing

/// Typed bytes as the session takes them: each bound key one command, in order.
@Suite(.timeLimit(.minutes(1)))
struct SessionInputTests {
  @Test func typedKeysBecomeTheirCommands() {
    #expect(
      SessionInput.typed(Array(" \u{1B}[A]q".utf8))
        == [.command(.togglePlaying), .command(.nudgeTempo(10)), .command(.stepNumerator(1)), .command(.quit)])
  }

  @Test func aLoneEscapeQuitsAndUnboundKeysAreDropped() {
    #expect(SessionInput.typed(Array("xyz\u{1B}".utf8)) == [.command(.quit)])
    #expect(SessionInput.typed([0xFF, 0xFE]).isEmpty)
  }
}
