import AudioListening
import Glibc
import MetronomeEngine
import PracticeListening

/// Listening to the player, asked for: where the hits come from, which count, how they are
/// placed and judged, and where the report goes.
public struct ListenRequest: Sendable, Equatable {
  /// The ports connected to the `hits` port: JACK's with `--jack`, else the ALSA sequencer's.
  public let sources: [String]
  /// The ALSA capture device audio attacks are heard through (without JACK); nil for none.
  public let captureDevice: String?
  /// Which notes count as hits.
  public let filter: HitFilter
  /// How loud and sudden an attack on an audio input must be to count.
  public let onsets: OnsetSettings
  /// Milliseconds taken off every hit (a latency JACK does not know of, or the player's own);
  /// nil for what `metronome calibrate` saved, if anything.
  public let inputOffsetMilliseconds: Double?
  /// Milliseconds either way within which a hit is on time.
  public let tolerance: Double
  /// Where the report is written, and in which format; nil for none.
  public let report: Report?
  /// What earns a step trainer its next step; nil for a trainer that steps as the bars go by.
  public let earn: Earn?
  /// Whether the click fades out bar by bar while every beat is hit within the tolerance.
  public let earnsSilence: Bool

  /// What earns a step trainer its next step (`--earn`), and what a player falling apart falls
  /// back (`--earn-back`).
  public struct Earn: Sendable, Equatable {
    /// The share of a step's beats, 0 to 1, hit within the tolerance that earns the next.
    public let mark: Double
    /// The BPM fallen back after two steps below the mark; nil for none.
    public let back: Double?
  }

  /// Where a report goes and in which format.
  public struct Report: Sendable, Equatable {
    /// The file, checked before the run.
    public let destination: ExportDestination
    /// The format its name asks for.
    public let format: ListeningReport.Format
  }

  /// The listening the options ask for; nil for none.
  ///
  /// Throws a usage error for a listening option without `--listen`, listening in a virtual or
  /// silent run (no clicks are heard), a value out of range, or a report that cannot be written where asked
  /// (a folder, a missing folder, a name that ends in none of the formats): said before the run,
  /// so that no practice is lost to it.
  public static func make(_ options: ListenOptions, jack: Bool, output: OutputOptions) throws(RunError) -> Self? {
    let hits = options.hits
    guard options.listen else {
      let listeningOptions: [(given: Bool, name: String)] = [
        (hits.listenFrom != nil, "--listen-from"), (hits.listenDevice != nil, "--listen-device"),
        (hits.listenNotes != nil, "--listen-notes"),
        (hits.listenVelocity != 1, "--listen-velocity"), (options.inputOffset != nil, "--input-offset"),
        (options.tolerance != nil, "--tolerance"), (options.report != nil, "--report"),
        (options.onsetLevel != nil, "--onset-level"), (options.onsetRise != nil, "--onset-rise"),
        (options.earn != nil, "--earn"), (options.earnBack != nil, "--earn-back"),
        (options.earnSilence, "--earn-silence"),
      ]
      if let first = listeningOptions.first(where: \.given)?.name {
        throw .usage("\(first) is for listening to the player: add --listen")
      }
      return nil
    }
    if jack, hits.listenDevice != nil {
      throw .usage("with --jack audio comes in on the port 'mic': connect it with --listen-from, not --listen-device")
    }
    if !jack, hits.listenDevice == nil,
      let given = options.onsetLevel != nil ? "--onset-level" : options.onsetRise != nil ? "--onset-rise" : nil
    {
      throw .usage("\(given) is for audio, heard on --jack's port 'mic' or a --listen-device: add one of them")
    }
    if output.virtual || output.silent {
      throw .usage(
        "--listen scores a player against the clicks as they are heard: drop --\(output.virtual ? "virtual" : "silent")"
      )
    }
    return try ListenRequest(options)
  }

  private init(_ options: ListenOptions) throws(RunError) {
    let hits = options.hits
    sources = hits.listenFrom?.ports ?? []
    if let device = hits.listenDevice, device.isEmpty {
      throw .usage("--listen-device needs a name: 'default', or one of `arecord -L`")
    }
    captureDevice = hits.listenDevice
    do { filter = try HitFilter(notes: hits.listenNotes, minimumVelocity: hits.listenVelocity) } catch {
      throw .usage("\(error)")
    }
    var onsets = OnsetSettings.standard
    if let level = options.onsetLevel {
      guard OnsetSettings.levels.contains(level) else { throw .usage("--onset-level must be from -90 to 0 dBFS") }
      onsets.level = level
    }
    if let rise = options.onsetRise {
      guard OnsetSettings.rises.contains(rise) else { throw .usage("--onset-rise must be from 3 to 40 dB") }
      onsets.rise = rise
    }
    self.onsets = onsets
    inputOffsetMilliseconds = options.inputOffset
    if let offset = options.inputOffset, !(-1_000...1_000).contains(offset) {
      throw .usage("--input-offset must be from -1000 to 1000 ms")
    }
    tolerance = options.tolerance ?? 20
    guard tolerance > 0, tolerance <= 500 else { throw .usage("--tolerance must be more than 0 and at most 500 ms") }
    report = try options.report.map { path throws(RunError) in try Self.report(at: path) }
    if let percent = options.earn, !(percent > 0 && percent <= 100) {
      throw .usage("--earn is the share of a step's beats on time that earns the next: more than 0 and at most 100 %")
    }
    if let back = options.earnBack, !(back > 0 && back <= 1_000) {
      throw .usage("--earn-back is the BPM fallen back: more than 0 and at most 1000, such as 5")
    }
    if options.earnBack != nil, options.earn == nil {
      throw .usage("--earn-back falls back a step trainer earned with --earn: add --earn 90")
    }
    earn = options.earn.map { Earn(mark: $0 / 100, back: options.earnBack) }
    earnsSilence = options.earnSilence
  }

  /// Where a report named `path` goes, checked as far as can be before the run.
  private static func report(at path: String) throws(RunError) -> Report {
    guard let format = ListeningReport.Format(path: path) else {
      throw .usage("--report writes .svg, .csv or .ndjson: '\(path)' ends in none of them")
    }
    let destination = try ReportFile.destination(path, for: "--report", example: "take.svg")
    if case .standardOutput = destination { throw .usage("--report needs a file: standard output has the beats") }
    return Report(destination: destination, format: format)
  }
}
