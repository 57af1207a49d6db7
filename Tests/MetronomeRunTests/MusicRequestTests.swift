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
    let request = try options { $0.words.words = ["200", "7/8", "Xx.x.x."] }.request().music
    #expect(request.start.meter == (try Meter(7, 8)))
    #expect(request.start.tempo.bpm == 200)
    #expect(request.pattern?.description == "Xx.x.x.")
  }

  @Test func wordsThatAreNoneOfThemOrTwoOfOneKindAreRefused() {
    #expect(usageError(options { $0.words.words = ["4/4", "3/4"] }) == "two meters given: write one, such as 7/8")
    #expect(usageError(options { $0.words.words = ["120", "90"] }) == "two tempos given: write one, such as 120")
    #expect(
      usageError(options { $0.words.words = ["fast"] })
        == "'fast' is neither a meter (such as 7/8), a tempo (such as 120 or the trainer 80-120/10) nor an accent"
        + " pattern (such as Xxxx)")
  }

  /// A meter is taken as written, 5/4 and 12/8 included, up to 64 beats a bar; `--max-numerator`
  /// is checked on its own.
  @Test func aMeterIsTakenAsWritten() throws {
    for (words, signature) in [(["5/4"], "5/4"), (["12/8", "90", "X..x..X..x.."], "12/8"), (["64/1"], "64/1")] {
      #expect(try options { $0.words.words = words }.request().music.start.meter.signature == signature)
    }
    #expect(
      usageError(options { $0.words.words = ["65/4"] })
        == "meter 65/4 has more than 64 beats per bar: write at most 64")
    #expect(usageError(options { $0.options.rhythm.maxNumerator = 65 }) == "--max-numerator must be from 1 to 64")
  }

  @Test func oneAccentPatternAtATimeThatFitsTheMeter() {
    #expect(
      usageError(
        options {
          $0.words.words = ["Xxxx"]
          $0.options.rhythm.group = .groups([2, 2])
        })
        == "give one accent pattern: a word, --pattern or --group")
    #expect(
      usageError(options { $0.options.rhythm.group = .compound })
        == "--group compound groups 6/8, 9/8 or 12/8 in threes, not 4/4")
    #expect(usageError(options { $0.options.rhythm.pattern = try? AccentPattern(parsing: "Xx") }) != nil)
  }

  @Test func rhythmValuesStayInRange() {
    #expect(
      usageError(options { $0.options.rhythm.poly = 65 })
        == "--poly 65 is out of range: a second voice plays 1 to 64 clicks a bar, such as 3")
    #expect(usageError(options { $0.options.rhythm.subdivide = 10 }) != nil)
    #expect(
      usageError(
        options {
          $0.options.rhythm.subdivide = 3
          $0.options.rhythm.swing = 60
        }) != nil)
  }

  @Test func atMostOneLengthEachPositive() {
    #expect(
      usageError(
        options {
          $0.options.length.bars = 2
          $0.options.length.beats = 3
        })
        == "give at most one of --beats, --bars and --duration")
    #expect(usageError(options { $0.options.length.beats = 0 }) == "--beats must be at least 1")
    #expect(usageError(options { $0.options.length.bars = 0 }) == "--bars must be at least 1")
    #expect(
      usageError(options { $0.options.length.duration = .infinity })
        == "--duration must be a positive number of seconds")
  }

  @Test func soundValuesStayInRange() {
    #expect(usageError(options { $0.options.sound.volume = 1.5 }) == "--volume must be from 0 to 1")
    #expect(usageError(options { $0.options.sound.rate = 4_000 }) != nil)
    #expect(
      usageError(options { $0.options.sound.samples = ["a", "b", "c", "d", "e", "f", "g"] })
        == "--samples takes at most 6 files: strong, normal, weak, subdivision, second voice, count-in")
  }

  /// `--voice` is flite's count, `--voice-dir` one's own (with or without `--voice`), and
  /// `--with-click` keeps the clicks under either, and needs one.
  @Test func theSpokenCountAndItsClicks() throws {
    #expect(try options { _ in }.request().music.voice == nil)
    #expect(try options { $0.options.sound.voice = true }.request().music.voice == .flite(withClick: false))
    #expect(
      try options {
        $0.options.sound.voice = true
        $0.options.sound.withClick = true
      }.request().music.voice == .flite(withClick: true))
    #expect(
      try options { $0.options.sound.voiceDir = "mine" }.request().music.voice == .folder("mine", withClick: false))
    #expect(
      try options {
        $0.options.sound.voice = true
        $0.options.sound.voiceDir = "mine"
        $0.options.sound.withClick = true
      }.request().music.voice == .folder("mine", withClick: true))
    #expect(
      usageError(options { $0.options.sound.withClick = true })
        == "--with-click keeps the clicks under a spoken count: add --voice or --voice-dir")
  }

  @Test func aMapSetsMeterAndTempoSoWordsGoWithoutIt() {
    #expect(
      usageError(
        options {
          $0.options.programme.map = "song.map"
          $0.words.words = ["120"]
        })
        == "a map sets meter, tempo and pattern: drop '120'")
  }

  /// `--seed` draws a command line's random gap, so that the same seed mutes the same bars again;
  /// without it, one seed for the whole run, and a regular gap has none to draw.
  @Test func theSeedGivenDrawsTheRandomGap() throws {
    for seed: UInt64 in [0, 7, .max] {
      let gap = try options {
        $0.options.programme.gap = try? Gap(parsing: "25%", seed: 1)
        $0.options.programme.seed = seed
      }.request().music.programme.gap
      #expect(gap == .random(percent: 25, byBeat: false, seed: seed), "seed \(seed)")
    }
    let unseeded = try options { $0.options.programme.gap = try? Gap(parsing: "25%:beats", seed: 1) }.request()
    #expect(unseeded.music.programme.gap == .random(percent: 25, byBeat: true, seed: unseeded.music.programme.seed))
    let regular = try options {
      $0.options.programme.gap = try? Gap(parsing: "3:1", seed: 1)
      $0.options.programme.seed = 7
    }.request()
    #expect(regular.music.programme.gap == .bars(play: 3, mute: 1))
  }

  @Test func programmeOptionsNeedWhatTheyActOn() {
    #expect(
      usageError(options { $0.options.programme.startLabel = "verse" })
        == "--start-label names a section of a map: give the map with --map")
    #expect(
      usageError(options { $0.options.programme.seed = 7 })
        == "--seed draws random gaps: give one with --gap 25% (or gap= in a map)")
    #expect(
      usageError(options { $0.options.programme.step = try? TempoStep(parsing: "5/4") })
        == "a step trainer needs both --step and --to, such as --step 5/4 --to 120")
    #expect(
      usageError(options { $0.options.programme.loopBars = 5...8 })
        == "--loop-bars loops bars of a map or a trainer: give --map, 80-120/10 or --step")
    #expect(
      usageError(
        options {
          $0.options.programme.setlist = "set.txt"
          $0.options.programme.map = "song.map"
        })
        == "a setlist names its songs' maps: drop --map, --step, --start-label and --loop-bars")
    #expect(
      usageError(
        options {
          $0.words.words = ["80-120/4"]
          $0.options.programme.step = try? TempoStep(parsing: "5/4")
          $0.options.programme.to = 130
        })
        == "give klick's trainer (80-120/10) or a step trainer (--step), not both")
    #expect(
      usageError(options { $0.options.programme.multiplier = 20 })
        == "--multiplier must be from 0.1 to 10, such as 0.8 for 80 %")
  }

  /// A trainer is a map the request knows before any file is read: its bars can be looped.
  @Test func aTrainersBarsCanBeLooped() throws {
    let programme = try options {
      $0.words.words = ["80-82/2"]
      $0.options.programme.loopBars = 2...3
    }.request().music
      .programme
    #expect(programme.trainer?.sections.first?.bpm(ofBeat: 0) == 80)
    #expect(programme.loopBars == 2...3)
    #expect(
      parseError("80-82/2", "--loop-bars", "3-2")
        == "The value '3-2' is invalid for '--loop-bars <bars>': '3-2' is not FIRST-LAST bars of the map, such as"
        + " 5-8 (or 5)")
  }

  @Test func settingsAreTheWordsWithTheMultiplierApplied() throws {
    let request = try options {
      $0.words.words = ["3/4", "100"]
      $0.options.programme.multiplier = 1.5
      $0.options.programme.countIn = .bars(2)
      $0.options.length.bars = 4
    }.request()
    let settings = try request.music.load()
    #expect(settings.tempo.bpm == 150)
    #expect(settings.meter == (try Meter(3, 4)))
    #expect(settings.length == .bars(4))
    #expect(settings.programme.countIn == .bars(2))
    #expect(settings.programme.map == nil)
  }

  /// `--step STEP/BARS` steps every that many bars, `STEP/SECONDSs` about every that many
  /// seconds; anything else is refused in its words.
  @Test func aStepTrainerStepsEveryBarsOrSeconds() throws {
    let trainer = { (step: String) throws -> TempoMap? in
      try options {
        $0.words.words = ["100"]
        $0.options.programme.step = try? TempoStep(parsing: step)
        $0.options.programme.to = 110
      }.request().music.programme.trainer
    }
    #expect(try trainer("5/4")?.sections.map(\.bars) == [4, 4, nil])
    #expect(try trainer("5/1")?.sections.map(\.bars) == [1, 1, nil])
    #expect(try trainer("5/\(TempoMapParser.maximumBars)")?.sections.first?.bars == TempoMapParser.maximumBars)
    // 10 s at 100 in 4/4 (2.4 s a bar) is 4 bars; at 105, 4.
    #expect(try trainer("5/10s")?.sections.map(\.bars) == [4, 4, nil])
    #expect(try trainer("5/0.1s")?.sections.map(\.bars) == [1, 1, nil])
    // Each form is the core's to read (TempoStepTests); the option reads its value with it.
    #expect(
      parseError("100", "--step", "5/0", "--to", "110")
        == "The value '5/0' is invalid for '--step <step>': '5/0' is not STEP/BARS or STEP/SECONDSs, such as 5/4 or"
        + " 5/30s")
  }
}
