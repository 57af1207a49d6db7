import ArgumentParser
import MetronomeAudio
import MetronomeRun

/// `metronome export`: writes a click track to a WAV, FLAC, Ogg Vorbis or AIFF file.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write a click track to a WAV, FLAC, Ogg Vorbis or AIFF file, as fast as the disk allows.",
    discussion: """
      Example: metronome export 7/8 200 --bars 8 --output click.wav

      A regular file is written beside itself and moved into place when complete; a symbolic link \
      is followed and its target written; '-' writes to standard output (metronome export 4/4 120 \
      --bars 8 -o - | aplay); a device or a FIFO is written in place, never replaced. The file's \
      extension chooses its format, as klick's -W does: .flac, .ogg (Ogg Vorbis) and .aif/.aiff \
      are written to regular files through libsndfile, anything else as WAV.
      """
  )

  @OptionGroup var meterAndTempo: MeterTempoOptions
  @OptionGroup var length: LengthOptions
  @OptionGroup var sound: SoundOptions
  @OptionGroup var program: ProgramOptions

  @Option(
    name: .shortAndLong,
    help: "The file to write: .wav ('-' for standard output), .flac, .ogg or .aiff, by its extension.")
  var output: String

  @Option(help: "Sample format: 16, 24 or float (FLAC: 16 or 24; Ogg Vorbis has none of its own).")
  var format: SampleEncoding = .pcm16

  func run() {
    Metronome.run(Self.self) { () throws(RunError) in
      let music = try MusicRequest(meterAndTempo.options, length.options, sound.options, program.options)
      try ExportRequest(music: music, loopsBars: program.loopBars != nil, path: output, encoding: format).export()
    }
  }
}
