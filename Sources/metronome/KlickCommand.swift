import ArgumentParser
import MetronomeAudio
import MetronomeRun
import TerminalUI

/// `metronome klick ARGS…`, or the binary called as `klick`: klick 0.12.2's command line.
struct KlickCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "klick",
    abstract: "Take klick's command line (also when this binary is called as klick).",
    discussion: """
      klick [options] [bars] [meter] tempo[-tempo2/accel] [pattern]
      klick [options] -f MAP        klick [options] -j        klick -W FILE …

      Plays through JACK as klick does, connected nowhere unless -p PORTS or -P. \
      -f map, -j follow the transport, -n name, -o/-R OSC (starting stopped), -i keys and \
      display, -W export, -r rate, -s sound, -S files, -e/-E levels, -v volume, -T lead the \
      transport, -c count-in, -l label, -x multiplier. -w, -d, -t and -L have no counterpart \
      and say so. `man metronome` tells all.
      """
  )

  @Argument(parsing: .captureForPassthrough, help: "klick's options and words.")
  var arguments: [String] = []

  func run() {
    Metronome.run(Self.self) { () throws(RunError) in
      let line = try KlickCommandLine(arguments.isEmpty ? ["-h"] : arguments)
      for note in line.notes { TextOutput.standardError.write("metronome: klick's \(note)\n") }
      switch line.command {
      case .help:
        print(Self.helpMessage(), terminator: "")
      case .version:
        print("klick 0.12.2 (metronome \(Metronome.version))")
      case .export(let path):
        let options = line.options
        let music = try MusicRequest(line.words, options.rhythm, options.length, options.sound, options.programme)
        try ExportRequest(music: music, loopsBars: false, path: path, encoding: .pcm16).export()
      case .play:
        try Player.play(PlayRequest(words: line.words, options: line.options, startsStopped: line.startsStopped))
      }
    }
  }
}
