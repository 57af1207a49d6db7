import TerminalUI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ScreenWriterTests {
  @Test func firstDrawClearsAndWritesEveryLine() {
    var output = ""
    let writer = ScreenWriter { output += $0 }
    writer.draw(["a", "b"])
    #expect(output == "\u{1B}[H\u{1B}[2J\u{1B}[1;1Ha\u{1B}[K\u{1B}[2;1Hb\u{1B}[K")
  }

  @Test func laterDrawsRewriteOnlyChangedLines() {
    var output = ""
    let writer = ScreenWriter { output += $0 }
    writer.draw(["a", "b", "c"])
    output = ""
    writer.draw(["a", "B", "c"])
    #expect(output == "\u{1B}[2;1HB\u{1B}[K")
    output = ""
    writer.draw(["a", "B", "c"])
    #expect(output == "")
  }

  @Test func shorterScreensClearTheLinesLeftOver() {
    var output = ""
    let writer = ScreenWriter { output += $0 }
    writer.draw(["a", "b"])
    output = ""
    writer.draw(["a"])
    #expect(output == "\u{1B}[2;1H\u{1B}[K")
  }

  @Test func invalidateRedrawsEverything() {
    var output = ""
    let writer = ScreenWriter { output += $0 }
    writer.draw(["a"])
    writer.invalidate()
    output = ""
    writer.draw(["a"])
    #expect(output.hasPrefix("\u{1B}[H\u{1B}[2J"))
  }
}
