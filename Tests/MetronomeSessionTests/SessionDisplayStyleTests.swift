import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import TerminalUI
import Testing

/// The big display and the plain one, driven by a session in virtual time.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct SessionDisplayStyleTests {
  /// When the whole screen lit and when it went dark again, over a big display's run at `bpm` in
  /// `meter` for `seconds`.
  private func wholeScreenChanges(bpm: Double, meter: Meter, seconds: Double, pattern: String? = nil) throws
    -> [(at: Double, lit: Bool)]
  {
    let harness = try Harness(
      PlaybackSettings(
        meter: meter, tempo: try Tempo(bpm: bpm), pattern: try pattern.map { try AccentPattern(parsing: $0) },
        length: .seconds(seconds)),
      display: true, style: .big)
    var changes: [(at: Double, lit: Bool)] = []
    harness.screen.onSend = { text in
      // A whole-screen change rewrites the first line: lit in reverse video, or not.
      guard let first = text.range(of: "\u{1B}[1;1H") else { return }
      let lit = text[first.upperBound...].hasPrefix("\u{1B}[7m")
      if lit != (changes.last?.lit ?? false) { changes.append((harness.mainQueue.now.seconds, lit)) }
    }
    harness.run()
    #expect(harness.exitStatus == 0)
    return changes
  }

  /// The acceptance's figure: at 240 BPM no more than three whole-screen changes in any second.
  @Test func at240OnlyBarOneFlashesAndNoSecondHasMoreThanThreeChanges() throws {
    let changes = try wholeScreenChanges(bpm: 240, meter: try Meter(4, 4), seconds: 4)
    #expect(changes.filter(\.lit).count == 4, "\(changes)")
    for (index, change) in changes.enumerated() {
      #expect(changes[index...].prefix { $0.at < change.at + 1 }.count <= 3, "\(changes)")
    }
  }

  /// At 120 each beat flashes as it is heard (the fake device's delay: 1024 frames) and goes
  /// dark 0.15 s later; a silent beat does not flash.
  @Test func at120EachSoundingBeatFlashesAsItIsHeard() throws {
    let changes = try wholeScreenChanges(bpm: 120, meter: try Meter(4, 4), seconds: 2, pattern: "Xx.x")
    let heard = 1_024.0 / 48_000
    let expected = [0.0, 0.5, 1.5].flatMap { [($0 + heard, true), ($0 + heard + 0.15, false)] }
    #expect(changes.count == expected.count, "\(changes)")
    for (change, want) in zip(changes, expected) {
      #expect(abs(change.at - want.0) < 1e-3 && change.lit == want.1, "\(changes)")
    }
  }

  /// The big display draws the heard beat's number, resizes with the terminal, and gives the
  /// terminal back.
  @Test func theBigDisplayShowsTheBeatAndFollowsAResize() throws {
    let harness = try Harness(display: true, style: .big)
    var screens: [[String]] = []
    // Between the flashes, which light 0.02 s to 0.17 s after each half second.
    harness.at(0.3) { _ in screens.append(harness.screen.lines) }
    harness.at(0.8) { _ in screens.append(harness.screen.lines) }
    harness.at(0.85) { session in
      harness.screen.size = (200, 60)
      session.receive(.resized)
    }
    harness.at(0.9) { _ in screens.append(harness.screen.lines) }
    harness.at(0.95) { $0.type(Array("q".utf8)) }
    harness.run()

    #expect(screens[0].count == 24 && screens[2].count == 60)
    #expect(screens[0][0] == " 120 BPM  4/4  playing  bar 1")
    let digits = { (lines: [String]) in lines.filter { $0.contains("█") || $0.contains("▓") } }
    #expect(digits(screens[0]).allSatisfy { $0.contains("█") }, "bar one is the accent")
    #expect(digits(screens[1]).allSatisfy { $0.contains("▓") }, "beat two is not")
    #expect(digits(screens[0]) != digits(screens[1]))
    #expect(digits(screens[2]).count > digits(screens[1]).count)
    #expect(harness.screen.restoreCount == 1)
  }

  /// The plain display prints the keys and the status once, a line for each change (a tempo key
  /// and a pause here), nothing per beat, and never moves the cursor.
  @Test func thePlainDisplayPrintsALineForEachChangeOnly() throws {
    let harness = try Harness(display: true, style: .plain)
    var sent: [String] = []
    harness.screen.onSend = { sent.append($0) }
    harness.at(1.2) { $0.type(Array("\u{1B}[A".utf8)) }
    harness.at(2.2) { $0.type(Array(" ".utf8)) }
    harness.at(2.5) { $0.type(Array("q".utf8)) }
    harness.run()

    #expect(sent.count == 4, "\(sent)")
    #expect(sent.first?.hasPrefix("keys: Space play/pause") == true)
    #expect(
      Array(sent.dropFirst()) == ["120 BPM, 4/4, playing\n", "130 BPM, 4/4, playing\n", "130 BPM, 4/4, paused\n"])
    #expect(!sent.joined().contains("\u{1B}"))
    #expect(harness.screen.restoreCount == 1)
  }
}
