import ArgumentParser
import AudioFiles
import Glibc
import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import TerminalUI

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

  func validate() throws {
    if program.loopBars != nil {
      throw ValidationError("--loop-bars loops until l releases it: export those bars as a map of their own")
    }
    guard length.length != nil || program.map != nil || program.setlist != nil else {
      throw ValidationError("an export needs --bars, --beats or --duration, or a map that ends (--map, --setlist)")
    }
    // A map is read when the run starts (standard input cannot be read twice); then it is checked.
    let settings = try PlaybackSettings(meterAndTempo, length, sound, program)
    if program.map == nil, program.setlist == nil { try checkSize(of: settings) }
    if format == .float32, SoundFileSink.Format(path: output) == .flac {
      throw ValidationError("FLAC holds 16 or 24 bits, not floats: use --format 16 or 24, or a .wav or .aiff name")
    }
    if output == "-", isatty(STDOUT_FILENO) == 1 {
      throw ValidationError("standard output is a terminal: pipe it ('-o - | aplay') or name a file with --output")
    }
  }

  /// Throws when the run `settings` describe does not end, or is too long for a WAV or AIFF
  /// file, whose sizes are 32 bits; FLAC and Ogg Vorbis count frames without that bound.
  private func checkSize(of settings: PlaybackSettings) throws {
    guard settings.length != nil || settings.program.ends else {
      throw ValidationError(
        settings.program.setlist == nil
          ? "the map plays for ever: give --bars, --beats or --duration"
          : "a song of the setlist plays until you move on: give it bars (a map line), or --duration")
    }
    let frames = ClickEngine(settings: settings).expectedFrames ?? 0
    let fileFormat = SoundFileSink.Format(path: output)
    let isBounded = fileFormat == nil || fileFormat == .aiff
    guard !isBounded || frames <= WAVFileSink.maximumFrames(in: format) else {
      throw ValidationError("\(ExportError.tooLong)")
    }
  }

  func run() throws {
    let settings: PlaybackSettings
    do {
      settings = try PlaybackSettings(
        meterAndTempo, length, sound, program, map: program.loadMap(), setlist: program.loadSetlist(),
        ownSounds: sound.ownSounds(for: Self.self))
      try checkSize(of: settings)
    } catch {
      Metronome.exitWithUsage(of: Self.self, error)
    }
    let engine = ClickEngine(settings: settings)
    let interrupts = InterruptWatcher()
    let frames = engine.expectedFrames ?? 0
    let progress = ProgressLine(total: frames, sampleRate: settings.sampleRate)
    do {
      let destination = try ExportDestination(resolving: output)
      let sink: any AudioSink =
        if let fileFormat = SoundFileSink.Format(path: output) {
          try SoundFileSink(
            destination: destination, format: fileFormat, sampleRate: settings.sampleRate, encoding: format)
        } else {
          try WAVFileSink(destination: destination, sampleRate: settings.sampleRate, encoding: format, frames: frames)
        }
      let written = try ClickTrackExporter.export(
        engine, to: sink, progress: progress.update, isCancelled: { interrupts.receivedSignal != nil }
      )
      progress.finish()
      let seconds = Tempo.format(Double(written) / Double(settings.sampleRate.hz))
      report("wrote \(destination.name): \(written) frames, \(seconds) s")
    } catch let error as ExportError {
      progress.finish()
      if error == .interrupted, let signal = interrupts.receivedSignal {
        report("\(error)")
        throw ExitCode(InterruptWatcher.exitStatus(for: signal))
      }
      throw RuntimeError(error.description)
    }
  }
}
