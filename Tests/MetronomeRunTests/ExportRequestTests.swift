import MetronomeAudio
import MetronomeRun
import Testing

/// The rules of an export, checked on the request.
@Suite(.timeLimit(.minutes(1)))
struct ExportRequestTests {
  /// The usage error an export of `options` to `path` throws, or nil when it is accepted.
  private func exportError(
    _ options: PlayOptions, to path: String = "click.wav", encoding: SampleEncoding = .pcm16
  ) -> String? {
    do {
      let music = try MusicRequest(options.music, options.length, options.sound, options.programme)
      _ = try ExportRequest(
        music: music, loopsBars: options.programme.loopBars != nil, path: path, encoding: encoding)
      return nil
    } catch {
      #expect(error.status == 64)
      return error.message
    }
  }

  @Test func anExportEnds() {
    #expect(
      exportError(PlayOptions())
        == "an export needs --bars, --beats or --duration, or a map that ends (--map, --setlist)")
    #expect(exportError(options { $0.length.bars = 2 }) == nil)
    #expect(exportError(options { $0.programme.map = "song.map" }) == nil)
  }

  @Test func loopedBarsAreNotExported() {
    #expect(
      exportError(
        options {
          $0.programme.map = "song.map"
          $0.programme.loopBars = "1-2"
        })
        == "--loop-bars loops until l releases it: export those bars as a map of their own")
  }

  @Test func flacHoldsNoFloats() {
    #expect(
      exportError(options { $0.length.bars = 1 }, to: "click.flac", encoding: .float32)
        == "FLAC holds 16 or 24 bits, not floats: use --format 16 or 24, or a .wav or .aiff name")
    #expect(exportError(options { $0.length.bars = 1 }, to: "click.wav", encoding: .float32) == nil)
  }
}
