import ALSAOutput
import Foundation
import MetronomeCore
import MetronomeEngine
import Testing

/// ALSA's `null` PCM takes writes without pacing or a sound card: enough to check negotiation,
/// conversion and errors; the real-time path is checked against JACK end to end.
@Suite(.timeLimit(.minutes(1)))
struct ALSAPCMTests {
  @Test func negotiatesWithTheNullDevice() throws {
    let pcm = try ALSAPCM(device: "null", sampleRate: .standard, periodFrames: 256, bufferFrames: 1_024)
    #expect(pcm.periodFrames > 0)
    #expect(pcm.bufferFrames >= 2 * pcm.periodFrames)
    #expect(pcm.channels >= 1)
  }

  @Test func playsAWholeRunIntoTheNullDevice() throws {
    let sink = try ALSASink(device: "null", sampleRate: .standard, periodFrames: 256, bufferFrames: 1_024)
    let engine = ClickEngine(settings: PlaybackSettings(length: .beats(4)))
    while !engine.isFinished { try sink.write(engine.renderPeriod(frames: sink.pcm.periodFrames)) }
    #expect(engine.renderer.cursor >= 72_000)
    #expect(sink.underrunCount == 0)
  }

  /// A quarter of a second of silence, in whole writes, plays before the stream.
  ///
  /// The stream's frames count from the first after it. ALSA's `file` device keeps what it was
  /// given.
  @Test func aLeadInOfSilencePlaysBeforeTheStreamAndIsNotCounted() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-lead-in-\(UUID()).raw").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let sink = try ALSASink(
      device: "file:'\(path)',raw", sampleRate: .standard, periodFrames: 256, bufferFrames: 1_024)
    let engine = ClickEngine(settings: PlaybackSettings(length: .beats(1)))
    let period = engine.renderPeriod(frames: sink.pcm.writeFrames)
    try sink.write(period)
    #expect(sink.pcm.writtenFrames == Int64(period.frames))
    let frameBytes = sink.pcm.channels * (sink.pcm.format == .float32 ? 4 : 2)
    let writeFrames = sink.pcm.writeFrames
    sink.pcm.close()

    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let leadIn = bytes.count / frameBytes - period.frames
    #expect(leadIn >= 12_000 && leadIn < 12_000 + writeFrames && leadIn % writeFrames == 0, "\(leadIn)")
    #expect(bytes[..<(leadIn * frameBytes)].allSatisfy { $0 == 0 })
    #expect(bytes[(leadIn * frameBytes)...].contains { $0 != 0 })
  }

  @Test func anUnknownDeviceIsOneErrorWithALSAsMessageAndAHint() {
    #expect {
      try ALSAPCM(device: "no-such-device", sampleRate: .standard, periodFrames: 256, bufferFrames: 1_024)
    } throws: { error in
      let alsa = error as? ALSAError
      return alsa?.operation == "open" && alsa?.message == "No such file or directory"
        && alsa?.description.contains("try --device NAME, `metronome devices`, or --silent") == true
    }
  }

  @Test func theNullDeviceIsReadAPeriodAtATimeAsACapture() throws {
    let capture = try ALSACapture(device: "null", sampleRate: .standard, periodFrames: 256, bufferFrames: 1_024)
    #expect(capture.pcm.stream == .capture)
    let frames = capture.pcm.periodFrames
    let raw = UnsafeMutableRawPointer.allocate(byteCount: 8 * frames * capture.pcm.channels, alignment: 8)
    defer { raw.deallocate() }
    #expect(try capture.pcm.read(into: raw, frames: frames) == false)
    #expect(try capture.pcm.read(into: raw, frames: frames) == false)
    #expect(capture.pcm.writtenFrames == Int64(2 * frames))
  }

  @Test func anUnknownCaptureDeviceSaysSoWithItsOwnHint() {
    #expect {
      try ALSACapture(device: "no-such-device", sampleRate: .standard, periodFrames: 256, bufferFrames: 1_024)
    } throws: { error in
      (error as? ALSAError)?.description
        == "no ALSA capture device 'no-such-device' (No such file or directory): try --listen-device NAME with one"
        + " of `arecord -L`, or --jack"
    }
  }

  /// A playback device is named in its errors whatever its name; the sequencer's errors say so.
  @Test func errorsNameTheirDeviceOrTheSequencer() {
    let playback = ALSAError(operation: "open", device: "sequencer", code: -2, message: "No such file", hint: "h")
    #expect(playback.description == "no ALSA playback device 'sequencer' (No such file): h")
    let sequencer = ALSAError(operation: "open", device: nil, code: -2, message: "No such file", hint: "h")
    #expect(sequencer.description == "no ALSA MIDI sequencer (No such file): h")
    let port = ALSAError(operation: "connect to '20:0'", device: nil, code: -1, message: "Denied", hint: "h")
    #expect(port.description == "the ALSA sequencer could not connect to '20:0' (Denied): h")
  }

  @Test(arguments: [ALSAPCM.Stream.playback, .capture])
  func listsTheNullDeviceBothWays(_ stream: ALSAPCM.Stream) {
    #expect(ALSAPCM.devices(stream).contains { $0.name == "null" })
  }
}
