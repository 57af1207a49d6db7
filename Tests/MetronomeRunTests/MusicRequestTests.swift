import Foundation
import MetronomeCore
import MetronomeEngine
import MetronomeRun
import Testing

/// What to play: the words, the rhythm, the length, the sound and the programme, checked once
/// and turned into settings once their files are read.
@Suite(.timeLimit(.minutes(1)))
struct MusicRequestTests {
  @Test func wordsComeInEitherOrderWithAPatternAfter() throws {
    let request = try options { $0.music.words = ["200", "7/8", "Xx.x.x."] }.request().music
    #expect(request.start.meter == (try Meter(7, 8)))
    #expect(request.start.tempo.bpm == 200)
    #expect(request.pattern?.description == "Xx.x.x.")
  }

  @Test func wordsThatAreNoneOfThemOrTwoOfOneKindAreRefused() {
    #expect(usageError(options { $0.music.words = ["4/4", "3/4"] }) == "two meters given: write one, such as 7/8")
    #expect(usageError(options { $0.music.words = ["120", "90"] }) == "two tempos given: write one, such as 120")
    #expect(
      usageError(options { $0.music.words = ["fast"] })
        == "'fast' is neither a meter (such as 7/8), a tempo (such as 120 or the trainer 80-120/10) nor an accent"
        + " pattern (such as Xxxx)")
  }

  /// A meter is taken as written, 5/4 and 12/8 included, up to 64 beats a bar; `--max-numerator`
  /// is checked on its own.
  @Test func aMeterIsTakenAsWritten() throws {
    for (words, signature) in [(["5/4"], "5/4"), (["12/8", "90", "X..x..X..x.."], "12/8"), (["64/1"], "64/1")] {
      #expect(try options { $0.music.words = words }.request().music.start.meter.signature == signature)
    }
    #expect(
      usageError(options { $0.music.words = ["65/4"] })
        == "meter 65/4 has more than 64 beats per bar: write at most 64")
    #expect(usageError(options { $0.music.maxNumerator = 65 }) == "--max-numerator must be from 1 to 64")
  }

  @Test func oneAccentPatternAtATimeThatFitsTheMeter() {
    #expect(
      usageError(
        options {
          $0.music.words = ["Xxxx"]
          $0.music.group = "2+2"
        })
        == "give one accent pattern: a word, --pattern or --group")
    #expect(
      usageError(options { $0.music.group = "compound" })
        == "--group compound groups 6/8, 9/8 or 12/8 in threes, not 4/4")
    #expect(usageError(options { $0.music.pattern = "Xx" }) != nil)
  }

  @Test func rhythmValuesStayInRange() {
    #expect(
      usageError(options { $0.music.poly = 65 })
        == "--poly 65 is out of range: a second voice plays 1 to 64 clicks a bar, such as 3")
    #expect(usageError(options { $0.music.subdivide = 10 }) != nil)
    #expect(
      usageError(
        options {
          $0.music.subdivide = 3
          $0.music.swing = 60
        }) != nil)
  }

  @Test func atMostOneLengthEachPositive() {
    #expect(
      usageError(
        options {
          $0.length.bars = 2
          $0.length.beats = 3
        })
        == "give at most one of --beats, --bars and --duration")
    #expect(usageError(options { $0.length.beats = 0 }) == "--beats must be at least 1")
    #expect(usageError(options { $0.length.bars = 0 }) == "--bars must be at least 1")
    #expect(usageError(options { $0.length.duration = .infinity }) == "--duration must be a positive number of seconds")
  }

  @Test func soundValuesStayInRange() {
    #expect(usageError(options { $0.sound.volume = 1.5 }) == "--volume must be from 0 to 1")
    #expect(usageError(options { $0.sound.rate = 4_000 }) != nil)
    #expect(
      usageError(options { $0.sound.samples = "a,b,c,d,e,f,g" })
        == "--samples takes at most 6 files: strong, normal, weak, subdivision, second voice, count-in")
  }

  /// `--voice` is flite's count, `--voice-dir` one's own (with or without `--voice`), and
  /// `--with-click` keeps the clicks under either, and needs one.
  @Test func theSpokenCountAndItsClicks() throws {
    #expect(try options { _ in }.request().music.voice == nil)
    #expect(try options { $0.sound.voice = true }.request().music.voice == .flite(withClick: false))
    #expect(
      try options {
        $0.sound.voice = true
        $0.sound.withClick = true
      }.request().music.voice == .flite(withClick: true))
    #expect(try options { $0.sound.voiceFolder = "mine" }.request().music.voice == .folder("mine", withClick: false))
    #expect(
      try options {
        $0.sound.voice = true
        $0.sound.voiceFolder = "mine"
        $0.sound.withClick = true
      }.request().music.voice == .folder("mine", withClick: true))
    #expect(
      usageError(options { $0.sound.withClick = true })
        == "--with-click keeps the clicks under a spoken count: add --voice or --voice-dir")
  }

  @Test func aMapSetsMeterAndTempoSoWordsGoWithoutIt() {
    #expect(
      usageError(
        options {
          $0.programme.map = "song.map"
          $0.music.words = ["120"]
        })
        == "a map sets meter, tempo and pattern: drop '120'")
  }

  @Test func programmeOptionsNeedWhatTheyActOn() {
    #expect(
      usageError(options { $0.programme.startLabel = "verse" })
        == "--start-label names a section of a map: give the map with --map")
    #expect(
      usageError(options { $0.programme.seed = 7 })
        == "--seed draws random gaps: give one with --gap 25% (or gap= in a map)")
    #expect(
      usageError(options { $0.programme.step = "5/4" })
        == "a step trainer needs both --step and --to, such as --step 5/4 --to 120")
    #expect(
      usageError(options { $0.programme.loopBars = "5-8" })
        == "--loop-bars loops bars of a map or a trainer: give --map, 80-120/10 or --step")
    #expect(
      usageError(
        options {
          $0.programme.setlist = "set.txt"
          $0.programme.map = "song.map"
        })
        == "a setlist names its songs' maps: drop --map, --step, --start-label and --loop-bars")
    #expect(
      usageError(
        options {
          $0.music.words = ["80-120/4"]
          $0.programme.step = "5/4"
          $0.programme.to = 130
        })
        == "give klick's trainer (80-120/10) or a step trainer (--step), not both")
    #expect(
      usageError(options { $0.programme.multiplier = 20 })
        == "--multiplier must be from 0.1 to 10, such as 0.8 for 80 %")
  }

  /// A trainer is a map the request knows before any file is read: its bars can be looped.
  @Test func aTrainersBarsCanBeLooped() throws {
    let programme = try options {
      $0.music.words = ["80-82/2"]
      $0.programme.loopBars = "2-3"
    }.request().music
      .programme
    #expect(programme.trainer?.sections.first?.bpm(ofBeat: 0) == 80)
    #expect(programme.loopBars == 2...3)
    #expect(
      usageError(
        options {
          $0.music.words = ["80-82/2"]
          $0.programme.loopBars = "3-2"
        })
        == "--loop-bars '3-2' is not FIRST-LAST bars of the map, such as 5-8 (or 5)")
  }

  @Test func settingsAreTheWordsWithTheMultiplierApplied() throws {
    let request = try options {
      $0.music.words = ["3/4", "100"]
      $0.programme.multiplier = 1.5
      $0.programme.countIn = "2"
      $0.length.bars = 4
    }.request()
    let settings = try request.music.load()
    #expect(settings.tempo.bpm == 150)
    #expect(settings.meter == (try Meter(3, 4)))
    #expect(settings.length == .bars(4))
    #expect(settings.programme.countIn == .bars(2))
    #expect(settings.programme.map == nil)
  }

  /// `--step STEP/BARS` steps every that many bars, from 1 to the most a section holds;
  /// `STEP/SECONDSs` every that many seconds, more than 0; anything else is refused in its words.
  @Test func aStepTrainerStepsEveryBarsOrSeconds() throws {
    let trainer = { (step: String) throws(RunError) -> TempoMap? in
      try options {
        $0.music.words = ["100"]
        $0.programme.step = step
        $0.programme.to = 110
      }.request().music.programme.trainer
    }
    #expect(try trainer("5/4")?.sections.map(\.bars) == [4, 4, nil])
    #expect(try trainer("5/1")?.sections.map(\.bars) == [1, 1, nil])
    #expect(try trainer("5/\(TempoMapParser.maximumBars)")?.sections.first?.bars == TempoMapParser.maximumBars)
    // 10 s at 100 in 4/4 (2.4 s a bar) is 4 bars; at 105, 4.
    #expect(try trainer("5/10s")?.sections.map(\.bars) == [4, 4, nil])
    #expect(try trainer("5/0.1s")?.sections.map(\.bars) == [1, 1, nil])
    for bad in [
      "5/0", "5/-1", "5/\(TempoMapParser.maximumBars + 1)", "5/0s", "5/-2s", "5/infs", "5/nans", "5", "5/4/4", "x/4",
      "5/s",
    ] {
      #expect(
        usageError(
          options {
            $0.music.words = ["100"]
            $0.programme.step = bad
            $0.programme.to = 110
          }) == "--step '\(bad)' is not STEP/BARS or STEP/SECONDSs, such as 5/4 or 5/30s", "\(bad)")
    }
  }
}
