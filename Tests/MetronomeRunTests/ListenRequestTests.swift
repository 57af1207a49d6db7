import AudioListening
import Glibc
import MetronomeCore
import MetronomeEngine
import MetronomeRun
import PracticeListening
import Testing

@Suite(.timeLimit(.minutes(1))) struct ListenRequestTests {
  @Test func listeningTakesTheJACKPortsNotesAndJudgement() throws {
    let request = try options {
      $0.options.client.jack = true
      $0.options.listen.listen = true
      $0.options.listen.hits.listenFrom = "a2j:kit,a2j:pad"
      $0.options.listen.hits.listenNotes = [36, 38]
      $0.options.listen.hits.listenVelocity = 10
      $0.options.listen.inputOffset = 3.5
      $0.options.listen.tolerance = 15
      $0.options.listen.report = "/tmp/take.svg"
    }.request()
    let listening = try #require(request.listening)
    #expect(listening.sources == ["a2j:kit", "a2j:pad"])
    #expect(listening.filter == (try HitFilter(notes: [36, 38], minimumVelocity: 10)))
    #expect(listening.inputOffsetMilliseconds == 3.5 && listening.tolerance == 15)
    #expect(listening.report?.destination == .replacing(path: "/tmp/take.svg") && listening.report?.format == .svg)
    let plain = try #require(
      try options {
        $0.options.client.jack = true
        $0.options.listen.listen = true
      }.request().listening)
    #expect(plain.sources.isEmpty && plain.filter == HitFilter() && plain.tolerance == 20 && plain.report == nil)
    #expect(try options { _ in }.request().listening == nil)
  }

  @Test func listeningOptionsThatCannotWorkAreRefusedBeforeTheRun() throws {
    #expect(
      usageError(options { $0.options.listen.report = "take.svg" })
        == "--report is for listening to the player: add --listen")
    #expect(
      usageError(options { $0.options.listen.hits.listenVelocity = 5 })
        == "--listen-velocity is for listening to the player: add --listen"
    )
    // Without --jack, the ALSA sequencer's port: accepted.
    #expect(usageError(options { $0.options.listen.listen = true }) == nil)
    #expect(
      usageError(
        options {
          $0.options.output.silent = true
          $0.options.listen.listen = true
        }) == "--listen scores a player against the clicks as they are heard: drop --silent")
    let listening = { (change: (inout PlayLine) -> Void) in
      options {
        $0.options.client.jack = true
        $0.options.listen.listen = true
        change(&$0)
      }
    }
    #expect(
      usageError(
        options {
          $0.options.output.virtual = true
          $0.options.listen.listen = true
        })
        == "--listen scores a player against the clicks as they are heard: drop --virtual")
    #expect(
      usageError(listening { $0.options.listen.tolerance = 0 }) == "--tolerance must be more than 0 and at most 500 ms")
    #expect(
      usageError(listening { $0.options.listen.inputOffset = 1_001 }) == "--input-offset must be from -1000 to 1000 ms")
    #expect(
      usageError(listening { $0.options.listen.hits.listenVelocity = 128 }) == "--listen-velocity must be from 1 to 127"
    )
    #expect(usageError(listening { $0.options.listen.onsetLevel = -91 }) == "--onset-level must be from -90 to 0 dBFS")
    #expect(usageError(listening { $0.options.listen.onsetRise = 2 }) == "--onset-rise must be from 3 to 40 dB")
    #expect(
      usageError(
        options {
          $0.options.listen.listen = true
          $0.options.listen.onsetRise = 6
        }) == "--onset-rise is for audio, heard on --jack's port 'mic' or a --listen-device: add one of them")
    #expect(
      try options {
        $0.options.listen.listen = true
        $0.options.listen.onsetRise = 6
        $0.options.listen.hits.listenDevice = "default"
      }.request().listening?.captureDevice == "default")
    #expect(
      usageError(options { $0.options.listen.hits.listenDevice = "mic" })
        == "--listen-device is for listening to the player: add --listen"
    )
    #expect(
      usageError(
        options {
          $0.options.listen.listen = true
          $0.options.listen.hits.listenDevice = ""
        }) == "--listen-device needs a name: 'default', or one of `arecord -L`")
    #expect(
      usageError(
        options {
          $0.options.listen.listen = true
          $0.options.listen.hits.listenDevice = "mic"
          $0.options.client.jack = true
        }) == "with --jack audio comes in on the port 'mic': connect it with --listen-from, not --listen-device")
    #expect(
      try listening {
        $0.options.listen.onsetLevel = -60
        $0.options.listen.onsetRise = 6
      }.request().listening?.onsets == OnsetSettings(level: -60, rise: 6, spacing: 0.025))
    #expect(
      usageError(listening { $0.options.listen.report = "take.png" })
        == "--report writes .svg, .csv or .ndjson: 'take.png' ends in none of them")
    #expect(
      usageError(listening { $0.options.listen.report = "/tmp" })
        == "--report writes .svg, .csv or .ndjson: '/tmp' ends in none of them")
    #expect(usageError(listening { $0.options.listen.report = "-.csv" }) == nil)
    #expect(
      usageError(listening { $0.options.listen.report = "/no/such/folder/take.svg" })
        == "--report: cannot write in '/no/such/folder/': No such file or directory")
  }

  /// Every listening option given without `--listen` is refused by its own name, each alone.
  @Test func eachListeningOptionAloneAsksForListen() {
    let alone: [(String, (inout PlayLine) -> Void)] = [
      ("--listen-from", { $0.options.listen.hits.listenFrom = "a2j:kit" }),
      ("--listen-device", { $0.options.listen.hits.listenDevice = "mic" }),
      ("--listen-notes", { $0.options.listen.hits.listenNotes = [36] }),
      ("--listen-velocity", { $0.options.listen.hits.listenVelocity = 5 }),
      ("--input-offset", { $0.options.listen.inputOffset = 0 }), ("--tolerance", { $0.options.listen.tolerance = 20 }),
      ("--report", { $0.options.listen.report = "take.csv" }),
      ("--onset-level", { $0.options.listen.onsetLevel = -40 }),
      ("--onset-rise", { $0.options.listen.onsetRise = 10 }),
    ]
    for (name, give) in alone {
      #expect(usageError(options(give)) == "\(name) is for listening to the player: add --listen")
    }
  }

  /// The ranges' edges: `--tolerance` above 0 and up to 500 ms, `--input-offset` from -1000 to
  /// 1000 ms, both ends taken and the next value beyond refused.
  @Test func theRangesTakeTheirEdgesAndNothingBeyond() throws {
    let listening = { (change: @escaping (inout PlayLine) -> Void) in
      options {
        $0.options.client.jack = true
        $0.options.listen.listen = true
        change(&$0)
      }
    }
    for tolerance in [0.001, 1, 500] {
      #expect(try listening { $0.options.listen.tolerance = tolerance }.request().listening?.tolerance == tolerance)
    }
    for tolerance in [0, -1, 500.001, .nan] {
      #expect(
        usageError(listening { $0.options.listen.tolerance = tolerance })
          == "--tolerance must be more than 0 and at most 500 ms", "\(tolerance)")
    }
    for offset in [-1_000.0, 0, 1_000] {
      #expect(
        try listening { $0.options.listen.inputOffset = offset }.request().listening?.inputOffsetMilliseconds == offset)
    }
    for offset in [-1_000.5, 1_000.5, .nan] {
      #expect(
        usageError(listening { $0.options.listen.inputOffset = offset })
          == "--input-offset must be from -1000 to 1000 ms",
        "\(offset)")
    }
  }

  @Test func aFolderNamedLikeAReportIsRefused() throws {
    let folder = "/tmp/metronome-listen-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).svg"
    #expect(mkdir(folder, 0o755) == 0)
    defer { rmdir(folder) }
    #expect(
      usageError(
        options {
          $0.options.client.jack = true
          $0.options.listen.listen = true
          $0.options.listen.report = folder
        }) == "--report: '\(folder)' is a folder: name a file in it, such as \(folder)/take.svg")
  }

  /// `--earn` steps a step trainer as its steps are earned: it needs --listen and the trainer, a
  /// share above 0 and at most 100 %; `--earn-back` needs it, and falls back whole steps.
  @Test func earningNeedsAListeningStepTrainer() throws {
    // Read once from a command line, as the binary reads it; the rules on the values it gives.
    let earned = try parsed("100", "--step", "5/4", "--to", "120", "--listen", "--earn", "90", "--earn-back", "10")
      .request()
    #expect(earned.listening?.earn?.mark == 0.9 && earned.listening?.earn?.back == 10)
    #expect(try earned.settings(interactive: false).programme.holdsSections)
    let trainer = { (change: (inout PlayLine) -> Void) in
      options {
        $0.options.programme.step = try? TempoStep(parsing: "5/4")
        $0.options.programme.to = 140
        $0.options.listen.listen = true
        change(&$0)
      }
    }
    #expect(try trainer { _ in }.request().settings(interactive: false).programme.holdsSections == false)
    #expect(
      usageError(options { $0.options.listen.earn = 90 }) == "--earn is for listening to the player: add --listen")
    #expect(
      usageError(
        options {
          $0.options.listen.listen = true
          $0.options.listen.earn = 90
        })
        == "--earn steps a step trainer as its steps are earned: give --step and --to, such as --step 5/4 --to 120")
    for percent in [0, 100.5, .nan] {
      #expect(
        usageError(trainer { $0.options.listen.earn = percent })
          == "--earn is the share of a step's beats on time that earns the next: more than 0 and at most 100 %")
    }
    #expect(try trainer { $0.options.listen.earn = 100 }.request().listening?.earn?.mark == 1)
    #expect(
      usageError(trainer { $0.options.listen.earnBack = 5 })
        == "--earn-back falls back a step trainer earned with --earn: add --earn 90")
    let fallingBack = { (back: Double) in
      trainer {
        $0.options.listen.earn = 90
        $0.options.listen.earnBack = back
      }
    }
    #expect(
      usageError(fallingBack(7.5)) == "--earn-back 7.5 falls back whole steps of 5 BPM: give 5 or a multiple of it")
    for back: Double in [0, 1_005] {
      #expect(
        usageError(fallingBack(back)) == "--earn-back is the BPM fallen back: more than 0 and at most 1000, such as 5")
    }
    // The edges: a share just above nothing, a thousand BPM back (in whole steps).
    #expect(try trainer { $0.options.listen.earn = 0.5 }.request().listening?.earn?.mark == 0.005)
    #expect(try fallingBack(1_000).request().listening?.earn?.back == 1_000)
    var halfSteps = fallingBack(0.5)
    halfSteps.options.programme.step = try TempoStep(parsing: "0.5/4")
    #expect(try halfSteps.request().listening?.earn?.back == 0.5)
  }

}
