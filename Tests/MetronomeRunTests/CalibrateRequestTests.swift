import MetronomeCore
import MetronomeRun
import PracticeListening
import Testing

/// `metronome calibrate`'s rules, checked on the request, no process: which measurement the
/// options ask for, and what does not go together.
@Suite(.timeLimit(.minutes(1)))
struct CalibrateRequestTests {
  /// The options `configure` sets, on top of none.
  private func calibrate(_ configure: (inout RequestOptions.Calibrate) -> Void) throws(RunError) -> CalibrateRequest {
    var options = RequestOptions.Calibrate()
    configure(&options)
    return try CalibrateRequest(options)
  }

  /// The usage error `configure`'s options throw, or nil when they are accepted.
  private func usageError(_ configure: (inout RequestOptions.Calibrate) -> Void) -> String? {
    do {
      _ = try calibrate(configure)
      return nil
    } catch {
      #expect(error.kind == .usage && error.status == 64)
      return error.message
    }
  }

  /// The tap-along: a bar of count-in, then its tempo (100 unless given); it hears MIDI through
  /// JACK or the ALSA sequencer's ports named, else the keys; either way it calibrates.
  @Test func theTapAlongCountsInABarAndHearsMIDIOrTheKeys() throws {
    guard case .tapAlong(let keys) = try calibrate({ _ in }) else {
      Issue.record("not a tap-along")
      return
    }
    #expect(keys.calibrates && keys.listening == nil && !keys.hearsAudio)
    #expect(keys.music.programme.countIn == .bars(1))
    #expect(keys.music.start.tempo == (try Tempo(bpm: 100)))
    #expect(keys.output == .alsa(device: "default", periodFrames: 256, bufferFrames: nil))
    guard
      case .tapAlong(let jack) = try calibrate({
        $0.tempo = "240"
        $0.output.jack = true
        $0.listen.notes = "38"
      })
    else {
      Issue.record("not a tap-along")
      return
    }
    #expect(jack.calibrates && jack.listening?.filter.notes == [38] && !jack.hearsAudio)
    #expect(jack.music.start.tempo == (try Tempo(bpm: 240)))
    guard case .tapAlong(let sequencer) = try calibrate({ $0.listen.from = "kit:0" }) else {
      Issue.record("not a tap-along")
      return
    }
    #expect(sequencer.listening?.sources == ["kit:0"])
  }

  /// `--loopback --jack` measures through the client named, connected as given (`none` too);
  /// `--loopback --listen-device` between two ALSA devices at the rate given.
  @Test func aLoopbackMeasuresThroughJACKOrBetweenTwoDevices() throws {
    let jack = try calibrate {
      $0.loopback = true
      $0.output.jack = true
      $0.output.clientName = "probe"
      $0.output.connect = "none"
      $0.listen.from = "system:capture_2"
    }
    guard case .jackLoopback(let name, let connections, let sources) = jack else {
      Issue.record("\(jack)")
      return
    }
    #expect(name == "probe" && connections == "none" && sources == "system:capture_2")
    let alsa = try calibrate {
      $0.loopback = true
      $0.output.device = "hw:1"
      $0.listen.device = "hw:2"
      $0.rate = 44_100
    }
    guard case .alsaLoopback(let device, let listenDevice, let rate) = alsa else {
      Issue.record("\(alsa)")
      return
    }
    #expect(device == "hw:1" && listenDevice == "hw:2" && rate.hz == 44_100)
  }

  /// What does not go together is one line, before anything plays.
  @Test func whatCannotWorkIsRefusedBeforeAnythingPlays() {
    #expect(
      usageError { $0.loopback = true }
        == "--loopback needs an input to find the signal on: --listen-device NAME (an ALSA capture device), or --jack")
    #expect(
      usageError {
        $0.loopback = true
        $0.output.jack = true
        $0.listen.device = "hw:2"
      } == "with --jack the signal comes back on the port 'mic': connect it with --listen-from")
    #expect(
      usageError { $0.listen.device = "hw:2" }
        == "--listen-device is for --loopback: the tap-along hears MIDI notes or keys")
    #expect(
      usageError {
        $0.loopback = true
        $0.listen.device = "hw:2"
        $0.rate = 1_000_000
      }?.contains("1000000") == true)
    #expect(usageError { $0.tempo = "fast" } != nil)
    #expect(
      usageError { $0.listen.velocity = 90 }
        == "--listen-velocity chooses MIDI notes, and the tap-along hears keys here: add --jack or --listen-from")
    #expect(
      usageError { $0.listen.notes = "38" }
        == "--listen-notes chooses MIDI notes, and the tap-along hears keys here: add --jack or --listen-from")
    #expect(
      usageError {
        $0.output.jack = true
        $0.listen.velocity = 0
      } != nil)
  }
}
