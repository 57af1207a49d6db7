import ArgumentParser
import MetronomeCore
import MetronomeRun
import OSCControl
import Testing

/// A live run's command line: its words and every option, as `metronome play` takes them.
struct PlayLine: ParsableArguments, Sendable {
  @OptionGroup var words: RhythmWords
  @OptionGroup var options: PlayOptions

  /// None given, read once: a debug build's ArgumentParser checks every group on each parse.
  static let none = PlayLine.givenNone

  /// The request they make; started stopped as klick's OSC would (`startsStopped`).
  func request(startsStopped: Bool = false) throws(RunError) -> PlayRequest {
    try PlayRequest(words: words, options: options, startsStopped: startsStopped)
  }
}

/// The words and options `configure` sets, on top of none.
func options(_ configure: (inout PlayLine) -> Void) -> PlayLine {
  var line = PlayLine.none
  configure(&line)
  return line
}

/// The words and options the command line `arguments` gives, as the binary reads them.
func parsed(_ arguments: String...) throws -> PlayLine { try PlayLine.parse(arguments) }

/// The error the command line `arguments` gives, as the binary says it (after `Error: `), or nil
/// when it reads.
func parseError(_ arguments: String...) -> String? {
  do {
    _ = try PlayLine.parse(arguments)
    return nil
  } catch {
    #expect(PlayLine.exitCode(for: error) == .validationFailure)
    return PlayLine.message(for: error)
  }
}

/// The usage error a request with `options` throws, or nil when it is accepted.
func usageError(_ options: PlayLine) -> String? {
  usageMessage { try options.request() }
}

/// The rules about which options of a live run go together, checked on the request, no process.
@Suite(.timeLimit(.minutes(1)))
struct PlayRequestTests {
  /// Where a microphone or a line input listens (`--jack`'s `mic`, a `--listen-device`), a
  /// count-in plays as the bars will, so that the room's answer to each of their clicks is learned
  /// before the player plays; apart where MIDI alone is heard (the ALSA sequencer, a calibration's
  /// tap-along through JACK) and without listening.
  @Test func aCountInPlaysAsTheBarsWhereAMicrophoneListens() throws {
    let jack = options {
      $0.options.client.jack = true
      $0.options.listen.listen = true
      $0.options.programme.countIn = .bars(1)
    }
    #expect(try jack.request().hearsAudio)
    #expect(try jack.request().settings(interactive: false).programme.countInPlaysTheBar)
    let device = options {
      $0.options.listen.listen = true
      $0.options.listen.hits.listenDevice = "default"
    }
    #expect(try device.request().settings(interactive: false).programme.countInPlaysTheBar)
    let sequencer = options {
      $0.options.listen.listen = true
      $0.options.listen.hits.listenFrom = "kit:0"
    }
    #expect(try !sequencer.request().hearsAudio)
    #expect(try !sequencer.request().settings(interactive: true).programme.countInPlaysTheBar)
    #expect(try !PlayLine.none.request().settings(interactive: false).programme.countInPlaysTheBar)
    let tapAlong = try PlayRequest(words: jack.words, options: jack.options, calibrates: true)
    #expect(!tapAlong.hearsAudio)
    #expect(try !tapAlong.settings(interactive: false).programme.countInPlaysTheBar)
  }

  /// OSC listens on the loopback interface unless told otherwise; `--osc-return` alone listens on
  /// a port the system chooses, as klick's `-R` does.
  @Test func oscListensOnLoopbackByDefault() throws {
    let remote = try #require(try options { $0.options.remote.osc = 9000 }.request().remote)
    #expect(remote.host == "127.0.0.1" && remote.port == 9000 && remote.readyTo == nil)
    let elsewhere = try #require(
      try options {
        $0.options.remote.osc = 9000
        $0.options.remote.oscHost = "0.0.0.0"
      }.request().remote)
    #expect(elsewhere.host == "0.0.0.0")
    let returning = try #require(try parsed("--osc-return", "9001").request().remote)
    #expect(returning.port == 0 && returning.readyTo == OSCEndpoint(host: "localhost", port: 9001))
    #expect(try PlayLine.none.request().remote == nil)
  }

  @Test func oscOptionsThatCannotWorkAreRefused() {
    #expect(
      usageError(options { $0.options.remote.oscHost = "0.0.0.0" })
        == "--osc-host says where OSC listens: add --osc PORT")
    #expect(usageError(options { $0.options.remote.osc = 0 }) == "--osc must be a UDP port from 1 to 65535")
    #expect(usageError(options { $0.options.remote.osc = 70_000 }) == "--osc must be a UDP port from 1 to 65535")
    #expect(
      parseError("--osc-return", "somewhere")
        == "The value 'somewhere' is invalid for '--osc-return': give a port or osc.udp://HOST:PORT/")
    #expect(
      usageError(
        options {
          $0.options.remote.osc = 9000
          $0.options.output.virtual = true
        }) == "OSC controls a live run: drop --virtual")
  }

  @Test func withoutOptionsItPlaysFourFourAt120OnALSAsDefault() throws {
    let request = try PlayLine.none.request()
    #expect(request.output == .alsa(device: "default", periodFrames: 256, buffer: .adapting(periodFrames: 256)))
    #expect(request.clock == nil)
    #expect(request.midi == nil)
    #expect(request.music.start.meter == .fourFour)
    #expect(request.music.start.tempo == .standard)
    #expect(request.events == .text)
  }

  @Test func jackSetsThePeriodSoDeviceBufferPeriodAndSilentGoWithoutIt() {
    let message =
      "--jack plays through the JACK server, which sets the period: drop --device, --period, --buffer and --silent"
    #expect(
      usageError(
        options {
          $0.options.client.jack = true
          $0.options.output.device = "hw:0"
        }) == message)
    #expect(
      usageError(
        options {
          $0.options.client.jack = true
          $0.options.output.silent = true
        }) == message)
    #expect(
      usageError(
        options {
          $0.options.client.jack = true
          $0.options.output.period = 512
        }) == message)
    #expect(
      usageError(
        options {
          $0.options.client.jack = true
          $0.options.output.buffer = 2048
        }) == message)
  }

  @Test func aJACKClientConnectsWhereAsked() throws {
    let none = try options {
      $0.options.client.jack = true
      $0.options.client.connect = "none"
    }.request()
    #expect(none.output == .jack(clientName: "metronome", connections: []))
    let named = try options {
      $0.options.client.jack = true
      $0.options.client.clientName = "drums"
      $0.options.client.connect = "a:in,b:in"
    }.request()
    #expect(named.output == .jack(clientName: "drums", connections: ["a:in", "b:in"]))
    #expect(
      try options { $0.options.client.jack = true }.request().output == .jack(clientName: "metronome", connections: nil)
    )
  }

  @Test func jackOptionsNeedJack() {
    let message =
      "--connect, --client-name, --follow-transport, --timebase-master, --follow-midi-clock and --link are for a"
      + " JACK client: add --jack"
    #expect(usageError(options { $0.options.client.connect = "none" }) == message)
    #expect(usageError(options { $0.options.client.clientName = "drums" }) == message)
    #expect(usageError(options { $0.options.sync.followTransport = true }) == message)
    #expect(usageError(options { $0.options.sync.timebaseMaster = true }) == message)
    #expect(usageError(options { $0.options.sync.followMIDIClock = true }) == message)
    #expect(usageError(options { $0.options.sync.link = true }) == message)
  }

  @Test func oneOutsideClockAtATime() throws {
    #expect(
      usageError(
        options {
          $0.options.client.jack = true
          $0.options.sync.followTransport = true
          $0.options.sync.followMIDIClock = true
        })
        == "the JACK transport and --follow-midi-clock would each place the beats: choose one")
    let master = try options {
      $0.options.client.jack = true
      $0.options.sync.timebaseMaster = true
    }.request()
    #expect(master.clock == .transport(isMaster: true))
    let follower = try options {
      $0.options.client.jack = true
      $0.options.sync.followTransport = true
    }.request()
    #expect(follower.clock == .transport(isMaster: false))
    let midi = try options {
      $0.options.client.jack = true
      $0.options.sync.followMIDIClock = true
      $0.options.sync.midiClockFrom = "x:out,y:out"
    }.request()
    #expect(midi.clock == .midiClock(sources: ["x:out", "y:out"]))
  }

  @Test func linkIsOnlyInItsOwnBuild() throws {
    let link = options {
      $0.options.client.jack = true
      $0.options.sync.link = true
    }
    #if AbletonLink
    #expect(try link.request().clock == .link)
    #else
    #expect(
      usageError(link)
        == "this metronome was built without Ableton Link: build it with scripts/install --link (the binary is then GPL)"
    )
    #endif
  }

  @Test func midiConnectionsNeedWhatTheyConnect() throws {
    #expect(
      usageError(options { $0.options.sync.midiConnect = "20:0" })
        == "--midi-connect connects the MIDI clock and notes: add --midi-clock or --midi-notes")
    #expect(
      usageError(
        options {
          $0.options.client.jack = true
          $0.options.sync.midiClockFrom = "x:out"
        })
        == "--midi-clock-from connects the MIDI clock followed: add --follow-midi-clock")
    let sent = try options {
      $0.options.sync.midiClock = true
      $0.options.sync.midiConnect = "20:0,24:0"
    }.request()
    #expect(sent.midi?.destinations == ["20:0", "24:0"])
    #expect(sent.midi?.sendsClock == true)
    #expect(sent.midi?.notes == nil)
    #expect(sent.midi?.name == "MIDI clock")
  }

  /// `--midi-notes` alone sends the standard notes, with the clock too if asked; a map is read as
  /// given, refused in its own line when wrong, and refused without `--midi-notes`.
  @Test func midiNotesAndTheirMap() throws {
    let notes = try options {
      $0.options.sync.midiNotes = true
      $0.options.sync.midiConnect = "fluid:midi_00"
    }.request()
    #expect(notes.midi == MIDIRequest(sendsClock: false, notes: MIDINoteMap(), destinations: ["fluid:midi_00"]))
    #expect(notes.midi?.name == "MIDI notes")
    let both = try options {
      $0.options.sync.midiNotes = true
      $0.options.sync.midiClock = true
      $0.options.sync.midiNoteMap = try? MIDINoteMap(parsing: "76,77/1")
    }.request()
    #expect(both.midi?.notes == (try MIDINoteMap(parsing: "76,77/1")))
    #expect(both.midi?.name == "MIDI clock and notes")
    #expect(both.midi?.destinations == [])
    #expect(
      parseError("--midi-notes", "--midi-note-map", "128")
        == "The value '128' is invalid for '--midi-note-map': '128' is not a note from 0 to 127 (NOTE or NOTE/CHANNEL,"
        + " such as 34/10)")
    #expect(
      usageError(options { $0.options.sync.midiNoteMap = try? MIDINoteMap(parsing: "34") })
        == "--midi-note-map sets the notes --midi-notes sends: add --midi-notes")
  }

  @Test func aVirtualRunSendsNoMIDI() {
    #expect(
      usageError(
        options {
          $0.options.output.virtual = true
          $0.options.sync.midiClock = true
        })
        == "--midi-clock sends the clock as the beats are heard: drop --virtual")
    #expect(
      usageError(
        options {
          $0.options.output.virtual = true
          $0.options.sync.midiNotes = true
        })
        == "--midi-notes sends the notes as the clicks are heard: drop --virtual")
  }

  @Test func theDisplaysStyleIsOneOfBigAndPlainAndOnlyForADisplay() throws {
    #expect(try options { _ in }.request().style == .standard)
    #expect(try options { $0.options.output.big = true }.request().style == .big)
    #expect(try options { $0.options.output.plain = true }.request().style == .plain)
    #expect(
      usageError(
        options {
          $0.options.output.big = true
          $0.options.output.plain = true
        }) == "--big and --plain are two displays: choose one")
    #expect(
      usageError(
        options {
          $0.options.output.plain = true
          $0.options.output.headless = true
        }) == "--plain is a display: drop --headless, which prints beats")
    #expect(
      usageError(
        options {
          $0.options.output.big = true
          $0.options.output.virtual = true
        }) == "--big is a display: drop --virtual, which prints beats")
  }

  @Test func standardInputIsReadOnce() {
    #expect(
      usageError(
        options {
          $0.options.programme.map = "-"
          $0.options.output.keys = "-"
        })
        == "--map - and --keys - both read standard input: give one of them a file")
    #expect(
      usageError(
        options {
          $0.options.programme.setlist = "-"
          $0.options.output.keys = "-"
        })
        == "--setlist - and --keys - both read standard input: give one of them a file")
    #expect(
      usageError(
        options {
          $0.options.programme.map = "-"
          $0.options.output.keys = "keys.txt"
        }) == nil)
  }

  @Test func periodAndBufferStayWithinTheirBounds() {
    #expect(usageError(options { $0.options.output.period = 15 }) == "--period must be from 16 to 65536 frames")
    #expect(usageError(options { $0.options.output.period = 65_537 }) == "--period must be from 16 to 65536 frames")
    #expect(
      usageError(
        options {
          $0.options.output.period = 512
          $0.options.output.buffer = 1000
        })
        == "--buffer must be at least two periods (1024 frames) and at most 1048576")
    #expect(usageError(options { $0.options.output.buffer = 1 << 21 }) != nil)
    #expect(
      usageError(
        options {
          $0.options.output.period = 512
          $0.options.output.buffer = 1024
        }) == nil)
  }

  /// Without `--buffer` the buffer starts at 1024 frames, or two periods if more, and may grow to
  /// four times that (4096 frames by default); a buffer given stays as given.
  @Test func anALSABufferGivenStaysAndOneNotGivenMayGrowFourfold() throws {
    let frames = { (period: Int, buffer: Int?) throws -> [Int] in
      let output = try options {
        $0.options.output.period = period
        $0.options.output.buffer = buffer
      }.request().output
      guard case .alsa(_, period, let asked) = output else { return [] }
      return [asked.startingFrames, asked.maximumFrames]
    }
    #expect(try frames(256, nil) == [1024, 4096])
    #expect(try frames(512, nil) == [1024, 4096])
    #expect(try frames(1024, nil) == [2048, 8192])
    #expect(try frames(256, 4096) == [4096, 4096])
  }

  @Test func theOutputIsVirtualSilentOrALSA() throws {
    #expect(try options { $0.options.output.virtual = true }.request().output == .virtual)
    #expect(try options { $0.options.output.silent = true }.request().output == .silent)
    let alsa = try options {
      $0.options.output.device = "hw:1"
      $0.options.output.period = 128
      $0.options.output.buffer = 512
    }.request()
    #expect(alsa.output == .alsa(device: "hw:1", periodFrames: 128, buffer: .fixed(512)))
    #expect(try options { $0.options.output.events = .none }.request().events == nil)
  }
}
