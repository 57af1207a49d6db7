import AudioFiles
import Foundation
import MetronomeCore
import MetronomeTesting
import Testing

/// A sound file as a click: at most ten seconds long, by the file's own rate, and not silent.
@Suite(.timeLimit(.minutes(1)))
struct SampleFileTests {
  /// Ten seconds exactly is taken and a frame more refused, at whatever rate the file holds: a
  /// 44.1 kHz file's 441,001 frames would be 9.2 s counted at the 48 kHz it plays at.
  @Test(arguments: [8_000, 44_100, 96_000])
  func tenSecondsAreTheLongestSoundTaken(rate: Int) throws {
    let longest = try load(frames: 10 * rate, rate: rate)
    #expect(longest.count == 480_000)
    let path = try write(frames: 10 * rate + 1, rate: rate)
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(throws: SampleFileError.tooLong(path: path, seconds: Double(10 * rate + 1) / Double(rate))) {
      try SampleFile.load(path: path, sampleRate: .standard)
    }
  }

  /// A file of zeros holds no click.
  @Test func aSilentFileIsRefused() throws {
    let path = try write(frames: 4_800, rate: 48_000, level: 0)
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(throws: SampleFileError.empty(path: path)) { try SampleFile.load(path: path, sampleRate: .standard) }
  }

  /// The sound `frames` long at `rate`, loaded at 48 kHz.
  private func load(frames: Int, rate: Int) throws -> [Float] {
    let path = try write(frames: frames, rate: rate)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try SampleFile.load(path: path, sampleRate: .standard, quality: .medium)
  }

  /// A WAV file of `frames` samples at `rate`, every one at `level`, in a temporary file of its own.
  private func write(frames: Int, rate: Int, level: Int16 = 1_000) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-sample-\(UUID()).wav").path
    let bytes = WAVFile.bytes(of: Array(repeating: level, count: frames), rate: rate)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }
}
