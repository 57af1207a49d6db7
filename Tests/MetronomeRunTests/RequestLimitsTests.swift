import MetronomeCore
import MetronomeRun
import Testing

/// Every bounded option at its edges: the last value taken and the first refused, as `--help`
/// and the man page state them.
@Suite(.timeLimit(.minutes(1)))
struct RequestLimitsTests {
  @Test func theMaximumNumeratorIsFromOneTo64() {
    for taken in [1, 64] { #expect(usageError(options { $0.options.rhythm.maxNumerator = taken }) == nil, "\(taken)") }
    for refused in [0, 65] {
      #expect(
        usageError(options { $0.options.rhythm.maxNumerator = refused }) == "--max-numerator must be from 1 to 64")
    }
  }

  @Test func theSecondVoiceIsFromOneTo64ClicksABar() throws {
    for taken in [1, 64] {
      #expect(try options { $0.options.rhythm.poly = taken }.request().music.polyrhythm == taken)
    }
    for refused in [0, 65] {
      #expect(
        usageError(options { $0.options.rhythm.poly = refused })
          == "--poly \(refused) is out of range: a second voice plays 1 to 64 clicks a bar, such as 3")
    }
  }

  @Test func theVolumeIsFromZeroToOne() {
    for taken in [0.0, 1] { #expect(usageError(options { $0.options.sound.volume = taken }) == nil, "\(taken)") }
    for refused in [-0.01, 1.01] {
      #expect(usageError(options { $0.options.sound.volume = refused }) == "--volume must be from 0 to 1")
    }
  }

  /// The listening options' ranges, heard on JACK's `mic`: each end taken, the next value
  /// either side refused with the range.
  @Test func theListeningRangesAreTakenToTheirEnds() {
    typealias Limit = (set: (inout PlayLine, Double) -> Void, taken: [Double], refused: [Double], error: String)
    let limits: [Limit] = [
      (
        { $0.options.listen.tolerance = $1 }, [0.01, 500], [0, 500.01],
        "--tolerance must be more than 0 and at most 500 ms"
      ),
      (
        { $0.options.listen.inputOffset = $1 }, [-1_000, 1_000], [-1_000.01, 1_000.01],
        "--input-offset must be from -1000 to 1000 ms"
      ),
      (
        { $0.options.listen.hits.listenVelocity = Int($1) }, [1, 127], [0, 128],
        "--listen-velocity must be from 1 to 127"
      ),
      ({ $0.options.listen.onsetLevel = $1 }, [-90, 0], [-90.01, 0.01], "--onset-level must be from -90 to 0 dBFS"),
      ({ $0.options.listen.onsetRise = $1 }, [3, 40], [2.99, 40.01], "--onset-rise must be from 3 to 40 dB"),
    ]
    for limit in limits {
      let listening = { (value: Double) in
        options {
          $0.options.client.jack = true
          $0.options.listen.listen = true
          limit.set(&$0, value)
        }
      }
      for taken in limit.taken { #expect(usageError(listening(taken)) == nil, "\(limit.error): \(taken)") }
      for refused in limit.refused { #expect(usageError(listening(refused)) == limit.error, "\(refused)") }
    }
  }

  @Test func sixSampleFilesAreTakenOneForEachVoice() throws {
    let request = try options { $0.options.sound.samples = "a,b,c,d,e,f" }.request().music
    #expect(request.samplePaths.map(\.path) == ["a", "b", "c", "d", "e", "f"])
  }

  @Test func aMeterATempoAndAPatternAreTheMostWords() {
    #expect(usageError(options { $0.words.words = ["3/4", "90", "X.x"] }) == nil)
    #expect(
      usageError(options { $0.words.words = ["3/4", "90", "X.x", "100"] })
        == "expected at most a meter, a tempo and a pattern, got '3/4 90 X.x 100'")
  }

  @Test func aLengthIsAtLeastOneBeatOrBarOrSomeSeconds() {
    #expect(usageError(options { $0.options.length.beats = 1 }) == nil)
    #expect(usageError(options { $0.options.length.bars = 1 }) == nil)
    #expect(usageError(options { $0.options.length.duration = 0.5 }) == nil)
    #expect(usageError(options { $0.options.length.duration = 0 }) == "--duration must be a positive number of seconds")
  }

  /// A length must end within the longest run (about three years), at the tempo the multiplier
  /// makes.
  @Test func aLengthEndsWithinTheLongestRunAtTheTempoPlayed() {
    // 100 million beats: 50 million seconds at 120 BPM, 5 million at 1200, 500 million at 12.
    let beats = 100_000_000
    let tooLong = { (beats: Int) in
      "--beats \(beats) lasts longer than the longest run, 100000000 seconds (about three years): ask for less"
    }
    #expect(usageError(options { $0.options.length.beats = beats }) == nil)
    #expect(
      usageError(
        options {
          $0.options.length.beats = beats
          $0.options.programme.multiplier = 10
        }) == nil)
    #expect(
      usageError(
        options {
          $0.options.length.beats = beats
          $0.options.programme.multiplier = 0.1
        }) == tooLong(beats))
    #expect(usageError(options { $0.options.length.beats = 3 * beats }) == tooLong(3 * beats))
  }

  @Test func theMultiplierIsFromATenthToTen() {
    for taken in [0.1, 10] {
      #expect(usageError(options { $0.options.programme.multiplier = taken }) == nil, "\(taken)")
    }
    for refused in [0.09, 10.5] {
      #expect(
        usageError(options { $0.options.programme.multiplier = refused })
          == "--multiplier must be from 0.1 to 10, such as 0.8 for 80 %", "\(refused)")
    }
  }

  @Test func thePeriodIsFrom16AndTheBufferUpToAMebiframe() {
    #expect(usageError(options { $0.options.output.period = 16 }) == nil)
    #expect(usageError(options { $0.options.output.buffer = 1 << 20 }) == nil)
  }

  @Test func theOSCPortIsFromOneTo65535() {
    for taken in [1, 65_535] { #expect(usageError(options { $0.options.remote.osc = taken }) == nil, "\(taken)") }
    for refused in [0, 65_536] {
      #expect(usageError(options { $0.options.remote.osc = refused }) == "--osc must be a UDP port from 1 to 65535")
    }
  }

  /// `--loop-bars` takes one bar or the first and last, the last not before the first.
  @Test func theBarsLoopedAreOneOrARangeInOrder() throws {
    // Each form is the core's to read (BarRangeTests); the option reads its value with it.
    #expect(try parsed("--map", "song.map", "--loop-bars", "2-4").options.programme.loopBars == 2...4)
    #expect(
      parseError("--map", "song.map", "--loop-bars=3-2")
        == "The value '3-2' is invalid for '--loop-bars <bars>': '3-2' is not FIRST-LAST bars of the map, such as 5-8"
        + " (or 5)")
  }

  /// A grouping is taken where its beats make the bar, and refused where they do not.
  @Test func aGroupingFillsTheBar() {
    #expect(
      usageError(
        options {
          $0.words.words = ["8/8"]
          $0.options.rhythm.group = .groups([3, 3, 2])
        }) == nil)
    #expect(
      usageError(
        options {
          $0.words.words = ["7/8"]
          $0.options.rhythm.group = .groups([3, 3, 2])
        }) == "the groups 3+3+2 add up to 8 beats but a bar of 7/8 has 7: make them add up to 7")
  }

  /// Swing alone swings eighths; a subdivision alone is played straight, triplets included.
  @Test func swingAloneSwingsEighthsAndASubdivisionAloneIsStraight() throws {
    let swung = try options { $0.options.rhythm.swing = 60 }.request().music.subdivision
    #expect(swung.count == 2 && swung.swing == 0.6)
    let triplets = try options { $0.options.rhythm.subdivide = 3 }.request().music.subdivision
    #expect(triplets.count == 3 && triplets.swing == 0.5)
    #expect(try options { _ in }.request().music.subdivision.count == 1)
  }

  /// A map's first section sets the meter, the tempo of its first beat (times the multiplier) and
  /// its pattern, and its meters may be wider than their denominators allow on the command line.
  @Test func theMapsFirstSectionSetsWhatPlaysFirst() throws {
    let map = try TempoMapParser.parse("2 20/4 100-140 Xx.xxxxxxxxxxxxxxxxx\n4 4/4 90\n", source: "song.map")
    let request = try options {
      $0.options.programme.map = "song.map"
      $0.options.programme.multiplier = 1.5
    }.request().music
    let settings = try request.settings(map: map, setlist: nil, samples: [:])
    #expect(settings.meter.signature == "20/4")
    #expect(settings.tempo.bpm == 150)
    #expect(settings.pattern?.description == "Xx.xxxxxxxxxxxxxxxxx")
    #expect(settings.cap == .widest)
    let plain = try options { $0.words.words = ["3/4"] }.request().music
    #expect(try plain.settings(map: nil, setlist: nil, samples: [:]).cap == plain.cap)
    #expect(plain.cap != .widest)
  }

  /// A setlist plays its first song first.
  @Test func aSetlistStartsWithItsFirstSong() throws {
    let songs = [
      "first.map": try TempoMapParser.parse("2 3/4 90\n", source: "first.map"),
      "second.map": try TempoMapParser.parse("2 5/4 130\n", source: "second.map"),
    ]
    let setlist = try SetlistParser.parse("first.map\nsecond.map\n", source: "set", seed: 0) {
      path, line, column throws(TempoMapError) in
      guard let map = songs[path] else {
        throw TempoMapError(source: "set", line: line, column: column, message: "no such song")
      }
      return map
    }
    let request = try options { $0.options.programme.setlist = "set" }.request().music
    let settings = try request.settings(map: nil, setlist: setlist, samples: [:])
    #expect(settings.meter.signature == "3/4" && settings.tempo.bpm == 90)
  }

  /// A trainer's target is the tempo of its last section.
  @Test func aTrainersTargetIsItsLastTempo() throws {
    let klick = try options { $0.words.words = ["80-120/4"] }.request().music
    #expect(try klick.settings(map: nil, setlist: nil, samples: [:]).programme.trainerTarget == 120)
    let step = try parsed("--step", "5/2", "--to", "100", "90").request().music
    #expect(try step.settings(map: nil, setlist: nil, samples: [:]).programme.trainerTarget == 100)
  }
}
