import AudioFiles
import MetronomeCore

/// Sounds recorded by others, from Debian's `lmms-common` (LMMS's samples, GPL-2.0-or-later,
/// read by the tests only, never built into metronome): drum breaks played by drummers, and music
/// (pads, synths, a piano), to hear as the world plays them.
public enum RecordedSound {
  /// Where `lmms-common` puts the samples.
  public static let folder = "/usr/share/lmms/samples"

  /// The sound at `path` under `folder` (as `"beats/break01.ogg"`), mono at `sampleRate`.
  public static func load(_ path: String, sampleRate: Int = DrumTake.sampleRate) throws -> [Float] {
    try SampleFile.load(path: "\(folder)/\(path)", sampleRate: SampleRate(sampleRate))
  }
}
