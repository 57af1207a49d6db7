import AudioListening
import Foundation
import MetronomeCore
import MetronomeTesting

/// `MetronomeBenchmark onsets FOLDER`: writes takes of Hydrogen's kit (`DrumTake`) as WAV files
/// with the truth of where each stroke's sound starts, and prints where metronome's detector
/// finds attacks in them and how long it took, for `scripts/bench-onsets` to score beside aubio.
///
/// Each seed gives two takes of 20 beats at 100 BPM after four alone: `dry`, the kit alone, and
/// `click`, the kit with the clicks brought back 1024 frames late at half their level, as a
/// microphone beside the speaker hears them (metronome takes them out; aubio cannot).
enum OnsetBenchmark {
  static func run(into folder: String, seeds: ClosedRange<UInt64> = 1...8) throws {
    let rate = try SampleRate(DrumTake.sampleRate)
    let spacing = 26_460
    let roundTrip = 1_024
    let beats = 24
    var seconds = 0.0
    var frames = 0
    for seed in seeds {
      let take = try DrumTake(clicks: beats, spacing: spacing, spread: 882, skipped: 4, seed: seed)
      let length = (beats + 1) * spacing
      let output = try DrumTake.clickTrack(count: beats, spacing: spacing, lead: spacing / 2, length: length)
      let heard = (0..<length).map { $0 >= roundTrip ? 0.5 * output[$0 - roundTrip] : 0 }
      let clickFrame = { spacing / 2 + $0 * spacing + roundTrip }
      for (name, input) in [
        ("dry", take.mixed(into: [Float](repeating: 0, count: length), clickFrame: clickFrame)),
        ("click", take.mixed(into: heard, clickFrame: clickFrame)),
      ] {
        let file = "\(folder)/\(name)-\(seed)"
        try writeWAV(input.samples, rate: rate.hz, to: file + ".wav")
        try input.attacks.map { "\($0)\n" }.joined().write(toFile: file + ".truth", atomically: true, encoding: .utf8)
        let listener = AudioHitListener(canceller: ClickCanceller(roundTrip: Int64(roundTrip)), sampleRate: rate)
        let started = ContinuousClock.now
        let found = listener.attacks(in: input.samples, playing: name == "click" ? output : []).map(\.0.frame)
        let elapsed = ContinuousClock.now - started
        seconds += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        frames += input.samples.count
        try found.map { "\($0)\n" }.joined().write(toFile: file + ".metronome", atomically: true, encoding: .utf8)
      }
    }
    let audioSeconds = Double(frames) / Double(rate.hz)
    print(
      "metronome's listener: \(String(format: "%.1f", audioSeconds)) s of audio in \(String(format: "%.3f", seconds)) s,"
        + " \(String(format: "%.3f", seconds / audioSeconds * 100)) % of one core"
        + " (\(String(format: "%.3f", seconds / audioSeconds * 100 * 48_000 / Double(rate.hz))) % at 48 kHz)")
  }

  /// Writes `samples` at `rate` as a mono WAV of 32-bit floats.
  private static func writeWAV(_ samples: [Float], rate: Int, to path: String) throws {
    var data = Data()
    func append<T>(_ value: T) { withUnsafeBytes(of: value) { data.append(contentsOf: $0) } }
    data.append(contentsOf: Array("RIFF".utf8))
    append(UInt32(36 + samples.count * 4).littleEndian)
    data.append(contentsOf: Array("WAVEfmt ".utf8))
    append(UInt32(16).littleEndian)
    append(UInt16(3).littleEndian)
    append(UInt16(1).littleEndian)
    append(UInt32(rate).littleEndian)
    append(UInt32(rate * 4).littleEndian)
    append(UInt16(4).littleEndian)
    append(UInt16(32).littleEndian)
    data.append(contentsOf: Array("data".utf8))
    append(UInt32(samples.count * 4).littleEndian)
    samples.withUnsafeBytes { data.append(contentsOf: $0) }
    try data.write(to: URL(fileURLWithPath: path))
  }
}
