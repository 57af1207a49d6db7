import Foundation
import MetronomeAudio
import MetronomeCore
import MetronomeEngine
import MetronomeTesting
import Testing

/// Exports real WAV files and finds the click onsets in them.
@Suite(.timeLimit(.minutes(1)))
struct ClickTrackExporterTests {
  private func export(_ settings: PlaybackSettings, format: SampleEncoding = .pcm16, periodFrames: Int = 4_096)
    throws -> WAVFile
  {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID()).wav")
    defer { try? FileManager.default.removeItem(at: url) }
    let engine = ClickEngine(settings: settings)
    let sink = try WAVFileSink(
      destination: .replacing(path: url.path), sampleRate: settings.sampleRate, encoding: format,
      frames: engine.expectedFrames ?? 0)
    _ = try ClickTrackExporter.export(engine, to: sink, periodFrames: periodFrames)
    return try WAVFile(contentsOf: url)
  }

  /// round(n × rate × 240 / (bpm × d)) in integers, halves up: the exact grid.
  private func exactFrames(count: Int, rate: Int64, bpm: Int64, denominator: Int64) -> [Int] {
    (0..<Int64(count)).map { n in Int((2 * n * rate * 240 + bpm * denominator) / (2 * bpm * denominator)) }
  }

  @Test func threeHundredBarsAt137LandOnTheExactGridWithAccentsOnBeatOne() throws {
    let wav = try export(PlaybackSettings(meter: .fourFour, tempo: try Tempo(bpm: 137), length: .bars(300)))
    let onsets = Onset.detect(in: wav.samples, sampleRate: wav.sampleRate)

    #expect(onsets.map(\.frame) == exactFrames(count: 1_200, rate: 48_000, bpm: 137, denominator: 4))
    #expect(wav.samples.count == exactFrames(count: 1_201, rate: 48_000, bpm: 137, denominator: 4).last)
    let accents = onsets.enumerated().filter { $0.element.peak > 0.8 }.map(\.offset)
    #expect(accents == Array(stride(from: 0, to: 1_200, by: 4)))
  }

  /// A count-in has a sound of its own, told from the music, undivided; played as the bar (where a
  /// microphone learns the music's clicks from it) it is the next bar, sample for sample, each
  /// beat's level's click, the eighths and the second voice, but that its first two beats state
  /// the beat alone (a room's answer to each beat's click is heard whole before an eighth's
  /// overlaps it).
  @Test func aCountInPlayingTheBarSoundsAsTheBarItLeadsIntoStatingTheBeatFirst() throws {
    func bars(apart: Bool) throws -> (countIn: ArraySlice<Float>, music: ArraySlice<Float>) {
      var settings = PlaybackSettings(
        subdivision: try Subdivision(2), polyrhythm: 3, length: .bars(1), programme: Programme(countIn: .bars(1)))
      settings.programme.countInPlaysTheBar = !apart
      let samples = try export(settings).samples
      #expect(samples.count == 192_000)
      return (samples[0..<96_000], samples[96_000..<192_000])
    }
    let together = try bars(apart: false)
    #expect(together.countIn.dropFirst(48_000).elementsEqual(together.music.dropFirst(48_000)), "not the next bar")
    // Eighths, and three against four from beat one; in the count-in, no eighth in beats one and two.
    #expect(
      Onset.detect(in: Array(together.music), sampleRate: 48_000).map(\.frame)
        == [0, 12_000, 24_000, 32_000, 36_000, 48_000, 60_000, 64_000, 72_000, 84_000])
    #expect(
      Onset.detect(in: Array(together.countIn), sampleRate: 48_000).map(\.frame)
        == [0, 24_000, 32_000, 48_000, 60_000, 64_000, 72_000, 84_000])
    #expect(together.countIn.prefix(12_000).elementsEqual(together.music.prefix(12_000)), "beat one not the bar's")
    let apart = try bars(apart: true)
    #expect(apart.music.elementsEqual(together.music), "the music changed with the count-in")
    #expect(!apart.countIn.elementsEqual(apart.music), "a count-in of its own sound played the bar")
  }

  @Test func eightBarsOfSevenEightAt200ClickEvery150Milliseconds() throws {
    let wav = try export(
      PlaybackSettings(meter: try Meter(7, 8), tempo: try Tempo(bpm: 200), sound: .beep, length: .bars(8)))
    let onsets = Onset.detect(in: wav.samples, sampleRate: wav.sampleRate)

    #expect(onsets.map(\.frame) == (0..<56).map { $0 * 7_200 })
    #expect(onsets.filter { $0.peak > 0.8 }.count == 8)
    #expect(wav.samples.count == 56 * 7_200)
  }

  @Test func aTempoChangeMidExportLandsOnTheNextBeatWithThePhaseKept() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("change-\(UUID()).wav")
    defer { try? FileManager.default.removeItem(at: url) }
    let engine = ClickEngine(settings: PlaybackSettings(length: .beats(8)))
    // At 1.2 s, between beat 3 (1.0 s) and beat 4, the tempo drops to 60.
    engine.clock.schedule(after: 1.2) { engine.viewModel.tempo.send(60) }
    // Announced as 8 beats at 120 (4 s); the change makes it 6.5 s, so the header is rewritten.
    let sink = try WAVFileSink(
      destination: .replacing(path: url.path), sampleRate: .standard, encoding: .pcm16, frames: 192_000)
    _ = try ClickTrackExporter.export(engine, to: sink)
    let wav = try WAVFile(contentsOf: url)
    let onsets = Onset.detect(in: wav.samples, sampleRate: 48_000)
    #expect(wav.declaredDataBytes == 336_000 * 2)
    #expect(wav.declaredRIFFBytes == wav.fileBytes - 8)

    #expect(onsets.map(\.frame) == [0, 24_000, 48_000, 96_000, 144_000, 192_000, 240_000, 288_000])
    #expect(onsets.map { $0.peak > 0.8 } == [true, false, false, false, true, false, false, false])
  }

  @Test func periodSizeDoesNotChangeASingleSample() throws {
    let settings = PlaybackSettings(tempo: try Tempo(bpm: 997), sound: .woodblock, length: .bars(4))
    let small = try export(settings, periodFrames: 64)
    let large = try export(settings, periodFrames: 48_000)
    #expect(small.samples == large.samples)
  }

  @Test(arguments: [SampleEncoding.pcm24, .float32])
  func otherFormatsStoreTheSameClicks(format: SampleEncoding) throws {
    let settings = PlaybackSettings(tempo: try Tempo(bpm: 90), length: .beats(3))
    let wav = try export(settings, format: format)
    #expect(wav.bitsPerSample == (format == .pcm24 ? 24 : 32))
    #expect(wav.isFloat == (format == .float32))
    #expect(Onset.detect(in: wav.samples, sampleRate: 48_000).map(\.frame) == [0, 32_000, 64_000])
  }

  @Test func otherRatesKeepTheExactGrid() throws {
    let wav = try export(
      PlaybackSettings(tempo: try Tempo(bpm: 137), sampleRate: try SampleRate(44_100), length: .beats(50)))
    #expect(wav.sampleRate == 44_100)
    let onsets = Onset.detect(in: wav.samples, sampleRate: 44_100).map(\.frame)
    #expect(onsets == exactFrames(count: 50, rate: 44_100, bpm: 137, denominator: 4))
  }

  @Test func anUnwritablePathFailsBeforeWritingAnything() {
    let url = URL(fileURLWithPath: "/nonexistent-\(UUID())/click.wav")
    #expect(throws: ExportError.cannotWrite(path: url.path, reason: "No such file or directory")) {
      try WAVFileSink(destination: .replacing(path: url.path), sampleRate: .standard, encoding: .pcm16, frames: 1)
    }
  }

  @Test func anInterruptedExportLeavesNoFileBehind() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("interrupted-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("click.wav")
    var periods = 0
    #expect(throws: ExportError.interrupted) {
      let engine = ClickEngine(settings: PlaybackSettings(length: .bars(100)))
      let sink = try WAVFileSink(
        destination: .replacing(path: url.path), sampleRate: .standard, encoding: .pcm16,
        frames: engine.expectedFrames ?? 0)
      _ = try ClickTrackExporter.export(
        engine, to: sink,
        progress: { _ in periods += 1 }, isCancelled: { periods == 3 }
      )
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
  }
}
