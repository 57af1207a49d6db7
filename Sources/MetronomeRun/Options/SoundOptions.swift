import ArgumentParser
import MetronomeAudio
import MetronomeCore

/// Options that choose what the clicks sound like, shared by playing and exporting.
public struct SoundOptions: ParsableArguments, Sendable {
  /// `--sound`.
  @Option(help: "Click")
  public var sound: ClickSound = .pulse

  /// `--volume`, 0 to 1.
  @Option(help: "From 0 to 1.")
  public var volume: Double = 1

  /// `--rate`, in Hz.
  @Option(help: "Sample rate in Hz.")
  public var rate: Int = SampleRate.standard.hz

  /// `--samples`: files, one per voice; an empty one keeps the voice's click.
  @Option(
    help: ArgumentHelp("Own sounds per voice, as klick's -S.", valueName: "files"), completion: .soundFiles,
    transform: NameList.init(parsing:))
  public var samples: NameList?

  /// `--voice`: the beats counted aloud by flite.
  @Flag(help: "Count the beats aloud in place of the clicks.")
  public var voice = false

  /// `--voice-dir`: the count said by one's own recordings in this folder.
  @Option(
    help: ArgumentHelp("Count with own recordings (1.wav, and.wav…).", valueName: "dir", visibility: .fullHelpOnly),
    completion: .directory)
  public var voiceDir: String?

  /// `--with-click`: the clicks kept under the spoken count.
  @Flag(help: "Keep the clicks under the spoken count.")
  public var withClick = false

  /// The built-in pulse at full volume, at 48 kHz.
  public init() {}
}

extension ClickSound: ExpressibleByArgument {}
extension SampleEncoding: ExpressibleByArgument {}
