import ArgumentParser
import MetronomeAudio
import MetronomeCore
import MetronomeRun

/// Options that choose what the clicks sound like, shared by playing and exporting.
struct SoundOptions: ParsableArguments {
  @Option(help: "Click sound.")
  var sound: ClickSound = .pulse

  @Option(help: "From 0 to 1.")
  var volume: Double = 1

  @Option(help: "Sample rate in Hz.")
  var rate: Int = SampleRate.standard.hz

  @Option(help: ArgumentHelp("Own sounds per voice, as klick's -S.", valueName: "files"), completion: .soundFiles)
  var samples: String?

  /// The values given.
  var options: RequestOptions.Sound {
    var options = RequestOptions.Sound()
    (options.sound, options.volume, options.rate, options.samples) = (sound, volume, rate, samples)
    return options
  }
}

extension ClickSound: ExpressibleByArgument {}
extension SampleEncoding: ExpressibleByArgument {}
