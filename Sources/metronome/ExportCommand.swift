import ArgumentParser
import MetronomeAudio
import MetronomeRun

/// `metronome export`: writes a click track to a WAV, FLAC, Ogg Vorbis, Opus, MP3 or AIFF file.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write a click track to a WAV, FLAC, Ogg Vorbis, Opus, MP3 or AIFF file, as fast as the disk allows.",
    usage: "metronome export [METER] [TEMPO] [PATTERN] --output <file> [<options>]",
    discussion: """
      Example: metronome export 7/8 200 --bars 8 --output click.wav

      The file's extension chooses its format, as klick's -W does; '-' writes WAV to standard \
      output (metronome export 4/4 120 --bars 8 -o - | aplay). A regular file is replaced only \
      once complete; a device or a FIFO is written in place. `man metronome` tells all.
      """
  )

  @OptionGroup var words: RhythmWords
  @OptionGroup(title: "Rhythm and length") var rhythm: RhythmOptions
  @OptionGroup(title: "Rhythm and length") var length: LengthOptions
  @OptionGroup(title: "Sound") var sound: SoundOptions
  @OptionGroup(title: "Programmes") var programme: ProgrammeOptions

  @Option(
    name: .shortAndLong, help: "The file: .wav ('-': stdout), .flac, .ogg, .opus, .mp3 or .aiff.",
    completion: .soundFiles)
  var output: String

  @Option(help: "Sample format: 16, 24 or float.")
  var format: SampleEncoding = .pcm16

  func run() {
    Metronome.run(Self.self) { () throws(RunError) in
      let music = try MusicRequest(words, rhythm, length, sound, programme)
      try ExportRequest(music: music, loopsBars: programme.loopBars != nil, path: output, encoding: format).export()
    }
  }
}
