import TerminalUI
import Testing

@Suite(.timeLimit(.minutes(1)))
struct KeyTests {
  @Test func decodesCharactersArrowsAndEscape() {
    let bytes: [UInt8] = [0x20, 0x1B, 0x5B, 0x41, 0x1B, 0x4F, 0x44, 0x5D, 0x1B]
    #expect(KeyDecoder().decode(bytes) == [.character(" "), .up, .left, .character("]"), .escape])
  }

  @Test func skipsUnknownSequencesWholly() {
    // Page Up is ESC [ 5 ~; nothing is bound to it, and its bytes must not become keys.
    #expect(KeyDecoder().decode([0x1B, 0x5B, 0x35, 0x7E, 0x71]) == [.character("q")])
  }

  @Test func namesRoundTrip() {
    for binding in KeyBindings.all {
      for (key, _) in binding.keys { #expect(Key(name: key.name) == key) }
    }
  }

  @Test func everyKeyIsBoundOnce() {
    let keys = KeyBindings.all.flatMap { $0.keys.map(\.0) }
    #expect(Set(keys).count == keys.count)
  }

  @Test func bindingsDoWhatTheHelpSays() {
    #expect(KeyBindings.command(for: .character(" ")) == .togglePlaying)
    #expect(KeyBindings.command(for: .up) == .nudgeTempo(10))
    #expect(KeyBindings.command(for: .character("{")) == .stepDenominator(-1))
    #expect(KeyBindings.command(for: .escape) == .quit)
    #expect(KeyBindings.command(for: .character("z")) == nil)
    #expect(KeyBindings.helpItems.first == "Space play/pause")
  }

  @Test func scriptsParseInTimeOrder() throws {
    let script = try KeyScript(parsing: "# warm up\n3 q\n\n1.5 ]\n1.5 space\n")
    #expect(script.presses.map(\.seconds) == [1.5, 1.5, 3])
    #expect(script.presses.map(\.key) == [.character("]"), .character(" "), .character("q")])
  }

  /// Any line whose first character after its indent is `#` is a comment, whatever follows it.
  @Test func linesStartingWithAHashAreCommentsWithOrWithoutASpace() throws {
    let script = try KeyScript(parsing: "#warm up\n  #1 q\n#2 ]\n\t# 3 space\n1 ]\n")
    #expect(script.presses.map(\.seconds) == [1])
    #expect(script.presses.map(\.key) == [.character("]")])
  }

  @Test func scriptLinesMayCarryTabsSurroundingWhitespaceAndWindowsLineEnds() throws {
    let script = try KeyScript(parsing: "  2.0\t]\t\r\n\t4   space \r\n")
    #expect(script.presses.map(\.seconds) == [2, 4])
    #expect(script.presses.map(\.key) == [.character("]"), .character(" ")])
  }

  @Test func scriptErrorsNameTheLine() {
    #expect(throws: KeyScriptError(line: 2, text: "soon ]", problem: .unreadable)) {
      try KeyScript(parsing: "1 ]\nsoon ]\n")
    }
    #expect(throws: KeyScriptError(line: 1, text: "1 z", problem: .unreadable)) { try KeyScript(parsing: "1 z") }
  }

  /// A press whose time no frame count could hold is refused, not left to trap later.
  @Test func pressesAfterTheLongestRunAreRefused() {
    #expect(throws: KeyScriptError(line: 1, text: "1e12 q", problem: .afterLongestRun)) {
      try KeyScript(parsing: "1e12 q")
    }
    for spelling in ["nan q", "inf q", "-0.5 q", "1e400 q"] {
      #expect(throws: KeyScriptError(line: 1, text: spelling, problem: .unreadable)) {
        try KeyScript(parsing: spelling)
      }
    }
  }
}
