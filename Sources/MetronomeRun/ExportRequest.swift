import AudioFiles
import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import TerminalUI

/// A request to write a click track to a file, checked; `export()` reads its files and writes it.
public struct ExportRequest: Sendable {
  /// What to play.
  public let music: MusicRequest
  /// The file to write (`-` for standard output); its extension chooses the format.
  public let path: String
  /// How samples are written.
  public let encoding: SampleEncoding

  /// The request the options make; throws a usage error for an export that would not end, an
  /// extension that names no format it writes, a format the file cannot hold, or `-` (standard
  /// output) where `standardOutput` is a terminal.
  public init(
    music: MusicRequest, loopsBars: Bool, path: String, encoding: SampleEncoding,
    standardOutput: TextOutput = .standardOutput
  ) throws(RunError) {
    if loopsBars {
      throw .usage("--loop-bars loops until l releases it: export those bars as a map of their own")
    }
    let readsMap = music.programme.mapPath != nil || music.programme.setlistPath != nil
    guard music.length != nil || readsMap else {
      throw .usage("an export needs --bars, --beats or --duration, or a map that ends (--map, --setlist)")
    }
    // A name without an extension (a device, a FIFO) is written as WAV; one that names another
    // format would otherwise be WAV under a name that says it is not.
    if let named = SoundFileSink.Format.fileExtension(of: path), !["wav", "wave"].contains(named),
      SoundFileSink.Format(path: path) == nil
    {
      throw .usage("metronome writes no '.\(named)' files: name it .wav, .flac, .ogg, .opus, .mp3 or .aiff")
    }
    if encoding == .float32, SoundFileSink.Format(path: path) == .flac {
      throw .usage("FLAC holds 16 or 24 bits, not floats: use --format 16 or 24, or a .wav or .aiff name")
    }
    if path == "-", standardOutput.isTerminal {
      throw .usage("standard output is a terminal: pipe it ('-o - | aplay') or name a file with --output")
    }
    self.music = music
    self.path = path
    self.encoding = encoding
  }

  /// Writes the click track as fast as the disk allows, with a progress line where `notes` (standard
  /// error unless told) is a terminal, and says there what was written; throws a `RunError` for
  /// what stopped it (a signal included).
  ///
  /// `receivedSignal` says which signal, if any, has asked it to stop; by default SIGINT, SIGTERM
  /// and SIGHUP, watched from the call on.
  public func export(
    notes: TextOutput = .standardError,
    receivedSignal: () -> Int32? = { [interrupts = InterruptWatcher()] in interrupts.receivedSignal }
  ) throws(RunError) {
    let settings = try music.load()
    try checkSize(of: settings)
    let engine = ClickEngine(settings: settings)
    let frames = engine.expectedFrames ?? 0
    let progress = ProgressLine(total: frames, sampleRate: settings.sampleRate, output: notes)
    do {
      let destination = try ExportDestination(resolving: path)
      let sink: any AudioSink =
        if let fileFormat = SoundFileSink.Format(path: path) {
          try SoundFileSink(
            destination: destination, format: fileFormat, sampleRate: settings.sampleRate, encoding: encoding)
        } else {
          try WAVFileSink(destination: destination, sampleRate: settings.sampleRate, encoding: encoding, frames: frames)
        }
      let written = try ClickTrackExporter.export(
        engine, to: sink, progress: progress.update, isCancelled: { receivedSignal() != nil })
      progress.finish()
      let seconds = Tempo.format(Double(written) / Double(settings.sampleRate.hz))
      report("wrote \(destination.name): \(written) frames, \(seconds) s", to: notes)
    } catch {
      progress.finish()
      if error as? ExportError == .interrupted, let signal = receivedSignal() {
        throw RunError(.interrupted(status: InterruptWatcher.exitStatus(for: signal)), "\(error)")
      }
      throw .runtime("\(error)")
    }
  }

  /// Throws a usage error when the run `settings` describe does not end, is too long for a WAV
  /// or AIFF file, whose sizes are 32 bits (FLAC, Ogg, Opus and MP3 count frames without that
  /// bound), or plays at a rate Opus or MP3 does not hold.
  public func checkSize(of settings: PlaybackSettings) throws(RunError) {
    // A map's sections all have bars, and --loop-bars is refused: only a setlist's song of one
    // line (a tempo, no bars) plays for ever.
    guard settings.length != nil || settings.programme.ends else {
      throw .usage("a song of the setlist plays until you move on: give it bars (a map line), or --duration")
    }
    let frames = ClickEngine(settings: settings).expectedFrames ?? 0
    let fileFormat = SoundFileSink.Format(path: path)
    let hz = settings.sampleRate.hz
    if let fileFormat, let rates = fileFormat.sampleRates, !rates.contains(hz) {
      let listed = rates.map(String.init).joined(separator: ", ")
      throw .usage("\(fileFormat.name) holds \(listed) Hz, not \(hz): give --rate 48000")
    }
    let isBounded = fileFormat == nil || fileFormat == .aiff
    guard !isBounded || frames <= WAVFileSink.maximumFrames(in: encoding) else {
      throw .usage("\(ExportError.tooLong)")
    }
  }
}
