import ArgumentParser
import FoundationEssentials
import MetronomeCore
import MetronomeEngine
import TerminalUI

/// `metronome export`: writes a click track to a WAV file.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write a click track to a WAV file, as fast as the disk allows.",
    discussion: "Example: metronome export 7/8 200 --bars 8 --output click.wav"
  )

  @OptionGroup var meterAndTempo: MeterTempoOptions
  @OptionGroup var length: LengthOptions
  @OptionGroup var sound: SoundOptions

  @Option(name: .shortAndLong, help: "The WAV file to write.")
  var output: String

  @Option(help: "Sample format: 16, 24 or float.")
  var format: SampleEncoding = .pcm16

  func validate() throws {
    guard length.length != nil else { throw ValidationError("an export needs --bars, --beats or --duration") }
  }

  func run() throws {
    let start = try meterAndTempo.parsed
    let settings = PlaybackSettings(
      meter: start.meter, tempo: start.tempo, cap: meterAndTempo.cap, sampleRate: try sound.sampleRate,
      sound: sound.sound, volume: sound.volume, length: length.length
    )
    let engine = ClickEngine(settings: settings)
    let interrupts = InterruptWatcher()
    let progress = ProgressLine(total: engine.expectedFrames, sampleRate: settings.sampleRate)
    do {
      let sink = try WAVFileSink(
        destination: URL(fileURLWithPath: output), sampleRate: settings.sampleRate, encoding: format)
      let frames = try ClickTrackExporter.export(
        engine, to: sink, progress: progress.update, isCancelled: { interrupts.receivedSignal != nil }
      )
      progress.finish()
      let seconds = Tempo.format(Double(frames) / Double(settings.sampleRate.hz))
      TextOutput.standardError.write("wrote \(output): \(frames) frames, \(seconds) s\n")
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
