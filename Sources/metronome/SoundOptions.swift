import ArgumentParser
import MetronomeAudio
import MetronomeCore
import MetronomeRun

/// Options that choose what the clicks sound like, shared by playing and exporting.
struct SoundOptions: ParsableArguments {
  @Option(help: "Click")
  var sound: ClickSound = .pulse

  @Option(help: "From 0 to 1.")
  var volume: Double = 1

  @Option(help: "Sample rate in Hz.")
  var rate: Int = SampleRate.standard.hz

  @Option(help: ArgumentHelp("Own sounds per voice, as klick's -S.", valueName: "files"), completion: .soundFiles)
  var samples: String?

  @Flag(help: "Count the beats aloud in place of the clicks.")
  var voice = false

  @Option(help: ArgumentHelp("Count with own recordings (1.wav, and.wav…).", valueName: "dir"), completion: .directory)
  var voiceDir: String?

  @Flag(help: "Keep the clicks under the spoken count.")
  var withClick = false

  /// The values given.
  var options: RequestOptions.Sound {
    var options = RequestOptions.Sound()
    (options.sound, options.volume, options.rate, options.samples) = (sound, volume, rate, samples)
    (options.voice, options.voiceFolder, options.withClick) = (voice, voiceDir, withClick)
    return options
  }
}

extension ClickSound: ExpressibleByArgument {}
extension SampleEncoding: ExpressibleByArgument {}
