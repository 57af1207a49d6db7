import MetronomeCore
import MetronomeRun
import PracticeListening
import Testing

/// `metronome calibrate`'s rules, checked on the request, no process: which measurement the
/// options ask for, and what does not go together.
@Suite(.timeLimit(.minutes(1)))
struct CalibrateRequestTests {
  /// The request `metronome calibrate ARGUMENTS` makes.
  private func calibrate(_ arguments: String...) throws -> CalibrateRequest {
    try CalibrateRequest(CalibrateOptions.parse(arguments))
  }

  /// The usage error `metronome calibrate ARGUMENTS` gives, or nil when it is accepted.
  private func usageError(_ arguments: String...) -> String? {
    usageMessage { try CalibrateRequest(CalibrateOptions.parse(arguments)) }
  }

  /// The tap-along: a bar of count-in, then its tempo (100 unless given); it hears MIDI through
  /// JACK or the ALSA sequencer's ports named, else the keys; either way it calibrates.
  @Test func theTapAlongCountsInABarAndHearsMIDIOrTheKeys() throws {
    guard case .tapAlong(let keys) = try calibrate() else {
      Issue.record("not a tap-along")
      return
    }
    #expect(keys.calibrates && keys.listening == nil && !keys.hearsAudio)
    #expect(keys.music.programme.countIn == .bars(1))
    #expect(keys.music.start.tempo == (try Tempo(bpm: 100)))
    #expect(keys.output == .alsa(device: "default", periodFrames: 256, buffer: .adapting(periodFrames: 256)))
    guard
      case .tapAlong(let jack) = try calibrate("240", "--jack", "--listen-notes", "38")
    else {
      Issue.record("not a tap-along")
      return
    }
    #expect(jack.calibrates && jack.listening?.filter.notes == [38] && !jack.hearsAudio)
    #expect(jack.music.start.tempo == (try Tempo(bpm: 240)))
    guard case .tapAlong(let sequencer) = try calibrate("--listen-from", "kit:0") else {
      Issue.record("not a tap-along")
      return
    }
    #expect(sequencer.listening?.sources == ["kit:0"])
  }

  /// `--loopback --jack` measures through the client named, connected as given (`none` too);
  /// `--loopback --listen-device` between two ALSA devices at the rate given.
  @Test func aLoopbackMeasuresThroughJACKOrBetweenTwoDevices() throws {
    let jack = try calibrate(
      "--loopback", "--jack", "--client-name", "probe", "--connect", "none", "--listen-from", "system:capture_2")
    guard case .jackLoopback(let name, let connections, let sources) = jack else {
      Issue.record("\(jack)")
      return
    }
    #expect(name == "probe" && connections == [] && sources == ["system:capture_2"])
    let alsa = try calibrate("--loopback", "--device", "hw:1", "--listen-device", "hw:2", "--rate", "44100")
    guard case .alsaLoopback(let device, let listenDevice, let rate) = alsa else {
      Issue.record("\(alsa)")
      return
    }
    #expect(device == "hw:1" && listenDevice == "hw:2" && rate.hz == 44_100)
  }

  /// What does not go together is one line, before anything plays.
  @Test func whatCannotWorkIsRefusedBeforeAnythingPlays() {
    #expect(
      usageError("--loopback")
        == "--loopback needs an input to find the signal on: --listen-device NAME (an ALSA capture device), or --jack")
    #expect(
      usageError("--loopback", "--jack", "--listen-device", "hw:2")
        == "with --jack the signal comes back on the port 'mic': connect it with --listen-from")
    #expect(
      usageError("--listen-device", "hw:2")
        == "--listen-device is for --loopback: the tap-along hears MIDI notes or keys")
    #expect(
      usageError("--loopback", "--listen-device", "hw:2", "--rate", "1000000")?.contains("1000000") == true)
    #expect(usageError("fast") != nil)
    #expect(
      usageError("--listen-velocity", "90")
        == "--listen-velocity chooses MIDI notes, and the tap-along hears keys here: add --jack or --listen-from")
    #expect(
      usageError("--listen-notes", "38")
        == "--listen-notes chooses MIDI notes, and the tap-along hears keys here: add --jack or --listen-from")
    #expect(
      usageError("--jack", "--listen-velocity", "0") != nil)
  }

  /// The tap-along on the keys needs a terminal to read them from: printed (`--headless`), it is
  /// refused as it starts, before the output is opened.
  @Test func theKeysTapAlongNeedsATerminal() throws {
    do {
      _ = try calibrate("--headless").run()
      Issue.record("a tap-along on the keys started with no terminal")
    } catch {
      #expect(
        error as? RunError
          == .usage("calibrating on the keyboard needs a terminal: run it in one, or calibrate a MIDI kit with --jack"))
    }
  }
}
