import ArgumentParser
import MetronomeRun
import TerminalUI

/// `metronome [METER] [TEMPO] [PATTERN]`: plays the metronome.
struct PlayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "play",
    abstract: "Play the metronome (the default command).",
    usage: "metronome [play] [METER] [TEMPO] [PATTERN] [<options>]",
    discussion: """
      METER is beats/note (7/8); TEMPO quarter notes a minute or klick's trainer \
      80-120/10; PATTERN a level per beat (X..x..). On a terminal the display and \
      keys, else a line per beat. More options: --help-hidden; all: man metronome.

      Keys (also in --keys scripts, as 'SECONDS KEY'):
      \(keyLines.joined(separator: "\n"))
      """
  )

  @OptionGroup var words: RhythmWords
  @OptionGroup var options: PlayOptions

  /// The keys' help items, a few to a line of at most 78 columns.
  private static var keyLines: [String] {
    KeyBindings.helpItems.reduce(into: [String]()) { lines, item in
      if let last = lines.last, last.count + 3 + item.count <= 78 {
        lines[lines.count - 1] = last + " · " + item
      } else {
        lines.append("  " + item)
      }
    }
  }

  func run() {
    // `--list-devices` never gets here: `Metronome.main` lists them before the rest is read.
    Metronome.run(Self.self) { () throws(RunError) in
      try Player.play(PlayRequest(words: words, options: options))
    }
  }
}
