import MetronomeControl
import MetronomeCore
import MetronomeTesting
import Testing

/// The state machine's reducer, as the ReCombine article tests reducers: a state and an action
/// in, the expected state out; no scheduler, no subscription.
@Suite(.timeLimit(.minutes(1)))
struct MetronomeStateTests {
  /// A state at `signature` and `bpm`, paused unless `playing`, under `cap`.
  private func state(
    _ signature: String = "4/4", _ bpm: Double = 120, playing: Bool = false, cap: NumeratorCap = .denominator,
    pattern: String? = nil, programme: Programme = Programme()
  ) throws -> MetronomeState {
    MetronomeState(
      tempo: try Tempo(bpm: bpm), meter: try Meter(parsing: signature, cap: cap), isPlaying: playing, cap: cap,
      pattern: try pattern.map { try AccentPattern(parsing: $0) }, programme: programme)
  }

  /// `state` after each of `actions` in turn.
  private func reduce(_ state: MetronomeState, _ actions: MetronomeAction...) -> MetronomeState {
    actions.reduce(into: state) { $0.apply($1) }
  }

  @Test func settingTheTempoClampsItToOneToAThousandAndIgnoresNaN() throws {
    let start = try state()
    #expect(reduce(start, .setTempo(97.5)).tempo.bpm == 97.5)
    #expect(reduce(start, .setTempo(5_000)).tempo.bpm == 1_000)
    #expect(reduce(start, .setTempo(-3)).tempo.bpm == 1)
    #expect(reduce(start, .setTempo(.nan)) == start)
  }

  @Test func nudgingAndScalingTheTempoStayWithinItsRange() throws {
    #expect(reduce(try state("4/4", 995), .nudgeTempo(by: 10)).tempo.bpm == 1_000)
    #expect(reduce(try state("4/4", 2), .nudgeTempo(by: -10)).tempo.bpm == 1)
    #expect(reduce(try state("4/4", 600), .scaleTempo(by: 2)).tempo.bpm == 1_000)
    #expect(reduce(try state("4/4", 90), .scaleTempo(by: 0.5)).tempo.bpm == 45)
  }

  /// Raytronome's scenario: from 24/32, each step of the denominator down clamps the numerator
  /// it shows, while the one asked for is kept.
  @Test func steppingTheDenominatorDownClampsTheNumeratorTo16Then8Then4() throws {
    let start = try state("24/32")
    let sixteen = reduce(start, .stepDenominator(by: -1))
    #expect(sixteen.meter == (try Meter(16, 16)))
    #expect(sixteen.requestedNumerator == 24)
    #expect(reduce(sixteen, .stepDenominator(by: -1)).meter == (try Meter(8, 8)))
    #expect(reduce(sixteen, .stepDenominator(by: -1), .stepDenominator(by: -1)).meter == .fourFour)
    // The request survives the round trip back up.
    #expect(reduce(sixteen, .stepDenominator(by: -2), .stepDenominator(by: 3)).meter == (try Meter(24, 32)))
  }

  @Test func theDenominatorStepperMapsOneToFourOnto4To32AndClampsTheRest() throws {
    let start = try state()
    #expect([1, 2, 3, 4].map { reduce(start, .setDenominatorStep($0)).meter.denominator } == [4, 8, 16, 32])
    #expect(reduce(start, .setDenominatorStep(0)).meter.denominator == 4)
    #expect(reduce(start, .setDenominatorStep(9)).meter.denominator == 32)
    #expect(reduce(start, .stepDenominator(by: -1)).meter.denominator == 4)
  }

  @Test func steppingTheNumeratorStaysWithinOneAndTheCap() throws {
    #expect(reduce(try state("4/4"), .stepNumerator(by: 1)).meter == .fourFour)
    #expect(reduce(try state("1/4"), .stepNumerator(by: -1)).meter.numerator == 1)
    #expect(reduce(try state("3/4"), .stepNumerator(by: 1)).meter.numerator == 4)
    let raised = NumeratorCap(atLeast: 7)
    #expect(reduce(try state("4/4", cap: raised), .stepNumerator(by: 3)).meter == (try Meter(7, 4, cap: raised)))
    #expect(reduce(try state("7/4", cap: raised), .stepNumerator(by: 1)).meter.numerator == 7)
  }

  /// A meter written as it is plays as written over its own note value: 5/4 needs no raised cap
  /// and comes back when the note value steps away and back, while the keys step no further.
  @Test func aWrittenMeterPlaysAsWrittenOverItsDenominator() throws {
    let fiveFour = try Meter(5, 4, cap: .widest)
    let start = MetronomeState(tempo: .standard, meter: fiveFour, isPlaying: false, cap: .denominator)
    #expect(start.meter == fiveFour)
    #expect(reduce(start, .stepDenominator(by: -1)).meter == fiveFour)
    #expect(reduce(start, .stepDenominator(by: 1)).meter == (try Meter(5, 8)))
    #expect(reduce(start, .stepDenominator(by: 1), .stepDenominator(by: -1)).meter == fiveFour)
    #expect(reduce(start, .stepNumerator(by: 1)).meter == fiveFour)
    // A meter set later is allowed in its place; the reset allows the first again.
    let sevenFour = reduce(start, .setMeter(try Meter(7, 4, cap: .widest)))
    #expect(sevenFour.meter.signature == "7/4")
    #expect(reduce(sevenFour, .setMeter(.fourFour), .setNumerator(5)).meter == .fourFour)
    #expect(reduce(sevenFour, .reset).meter == fiveFour)
  }

  @Test func aNumeratorAskedAboveTheCapIsShownClampedAndKept() throws {
    let asked = reduce(try state("4/8"), .setNumerator(12))
    #expect(asked.requestedNumerator == 12)
    #expect(asked.meter == (try Meter(8, 8)))
    #expect(reduce(asked, .stepDenominator(by: 1)).meter == (try Meter(12, 16)))
  }

  @Test func resetGoesBackToTheStartButKeepsPlayingOrPaused() throws {
    let start = try state("6/8", 96, playing: true, pattern: "X..x..")
    let changed = reduce(
      start, .setTempo(150), .stepDenominator(by: -1), .setPattern(nil), .stepSubdivision(by: 2), .toggleMute,
      .togglePolyrhythmMute, .togglePlaying)
    let reset = reduce(changed, .reset)
    #expect(reset.tempo.bpm == 96)
    #expect(reset.meter == (try Meter(6, 8)))
    #expect(reset.pattern == (try AccentPattern(parsing: "X..x..")))
    #expect(reset.subdivision == .none)
    #expect(!reset.isMuted)
    #expect(!reset.isPolyrhythmMuted)
    #expect(!reset.isPlaying)
    #expect(reduce(start, .toggleMute, .reset).isPlaying)
  }

  @Test func playAndPauseToggle() throws {
    let paused = try state()
    #expect(reduce(paused, .togglePlaying).isPlaying)
    #expect(!reduce(paused, .togglePlaying, .togglePlaying).isPlaying)
  }

  /// Play and pause asked as values, as OSC asks them: the second time changes nothing, and a
  /// measurement of taps goes on where nothing changed.
  @Test func playAndPauseAsValuesChangeOnlyWhatDiffers() throws {
    let paused = try state()
    #expect(reduce(paused, .setPlaying(false)) == paused)
    let playing = reduce(paused, .setPlaying(true))
    #expect(playing.isPlaying)
    #expect(reduce(playing, .setPlaying(true)) == playing)
    #expect(!reduce(playing, .setPlaying(false)).isPlaying)
    let tapped = reduce(paused, .tapTempo(atSeconds: 0), .setPlaying(false), .tapTempo(atSeconds: 0.6))
    #expect(tapped.tempo.bpm == 100)
    let restarted = reduce(paused, .tapTempo(atSeconds: 0), .setPlaying(true), .tapTempo(atSeconds: 0.6))
    #expect(restarted.tempo.bpm == 120)
  }

  @Test func cyclingALevelMovesThatBeatOnAndIgnoresBeatsOutsideTheBar() throws {
    let start = try state("4/4")
    #expect(reduce(start, .cycleLevel(ofBeat: 2)).pattern == (try AccentPattern(parsing: "Xoxx")))
    #expect(reduce(start, .cycleLevel(ofBeat: 1)).pattern == (try AccentPattern(parsing: "xxxx")))
    #expect(reduce(start, .cycleLevel(ofBeat: 5)) == start)
    #expect(reduce(start, .cycleLevel(ofBeat: 0)) == start)
  }

  @Test func aPatternThatNoLongerFitsTheMeterGivesWayToTheStandardOne() throws {
    let start = try state("6/8", pattern: "X..x..")
    #expect(reduce(start, .stepNumerator(by: -1)).pattern == .standard(beats: 5))
    #expect(
      reduce(start, .stepNumerator(by: -1), .stepNumerator(by: 1)).pattern == (try AccentPattern(parsing: "X..x..")))
  }

  @Test func subdivisionAndSwingStayWithinTheirRanges() throws {
    let start = try state()
    #expect(reduce(start, .stepSubdivision(by: 1)).subdivision.count == 2)
    #expect(reduce(start, .stepSubdivision(by: -1)).subdivision.count == 1)
    #expect(reduce(start, .stepSubdivision(by: 20)).subdivision.count == 9)
    let swung = reduce(start, .stepSubdivision(by: 1), .stepSwing(by: 1))
    #expect(swung.subdivision.swing == 0.75)
    #expect(reduce(swung, .stepSwing(by: -1)).subdivision.swing == 0.5)
    // An odd count plays straight.
    #expect(reduce(swung, .stepSubdivision(by: 1)).subdivision.swing == 0.5)
  }

  @Test func sectionKeysDoNothingWithoutAMap() throws {
    let start = try state()
    #expect(reduce(start, .jumpSection(by: 1), .toggleSectionLoop) == start)
  }

  /// A jump is told to the beats playing, each time it is asked for, and changes no state; the
  /// loop toggles, and is told to the beats as it now is.
  @Test func eachSectionJumpIsToldToTheBeatsAndTheLoopToggles() throws {
    let map = try TempoMapParser.parse(klickExampleMap, source: "example")
    let start = try state(programme: Programme(map: map))
    let jumped = reduce(start, .jumpSection(by: 1))
    #expect(jumped == start)
    #expect(jumped.beatEvents(after: .jumpSection(by: 1), from: start) == [.control(.jump(by: 1))])
    let looping = reduce(start, .toggleSectionLoop)
    #expect(looping.beatEvents(after: .toggleSectionLoop, from: start) == [.control(.loop(true))])
    #expect(reduce(start, .toggleSectionLoop).programme.loopsSection)
    #expect(!reduce(start, .toggleSectionLoop, .toggleSectionLoop).programme.loopsSection)
  }

  @Test func followingAClockTakesItsTempoAndMeterAndPlaysUntilItStops() throws {
    let sevenEight = try Meter(7, 8)
    let anchor = TransportAnchor(
      id: 1, source: .jack, frame: 48_000, bar: 3, beatInBar: 2, tempo: try Tempo(bpm: 140), meter: sevenEight)
    let following = reduce(try state(), .follow(anchor))
    #expect(following.isPlaying)
    #expect(following.tempo.bpm == 140)
    #expect(following.meter == sevenEight)
    #expect(following.programme.transport == anchor)
    let stopped = reduce(following, .follow(nil))
    #expect(!stopped.isPlaying)
    #expect(stopped.programme.transport == nil)
    // A clock's meter is taken as it is, past the cap its note value sets.
    let sevenFour = TransportAnchor(
      id: 2, source: .midi, frame: 0, bar: 1, beatInBar: 1, tempo: .standard, meter: try Meter(7, 4, cap: .widest))
    #expect(reduce(try state(), .follow(sevenFour)).meter.signature == "7/4")
  }

  /// Values set as a remote control sets them are the values in force: a numerator (at least
  /// 1), a whole meter, a subdivision, a count-in.
  @Test func valuesSetAreInForce() throws {
    let start = try state()
    #expect(reduce(start, .setNumerator(0)).meter.numerator == 1)
    #expect(reduce(start, .setNumerator(1)).meter.numerator == 1)
    #expect(reduce(start, .setNumerator(3)).meter.numerator == 3)
    #expect(reduce(start, .setMeter(try Meter(3, 8))).meter.signature == "3/8")
    #expect(reduce(start, .setSubdivision(try Subdivision(3))).subdivision.count == 3)
    #expect(reduce(start, .setCountIn(.bars(2))).programme.countIn == .bars(2))
    #expect(reduce(start, .setCountIn(.bars(2)), .setCountIn(nil)).programme.countIn == nil)
  }

  @Test func withAMapTheTempoScalesIt() throws {
    let map = try TempoMapParser.parse("4 4/4 100\n", source: "map")
    let start = try state("4/4", 100, programme: Programme(map: map))
    #expect(reduce(start, .setTempo(150)).settings.programme.multiplier == 1.5)
    #expect(reduce(start, .setTempo(150), .reset).tempo.bpm == 100)
    // A map asked for faster (klick's -x) resets to its tempo times the multiplier.
    let faster = try state("4/4", 150, programme: Programme(map: map, multiplier: 1.5))
    #expect(reduce(faster, .setTempo(90), .reset).tempo.bpm == 150)
    // Another map plays at the multiplier the tempo keys made of the first.
    let other = try TempoMapParser.parse("4 4/4 80\n", source: "other")
    #expect(reduce(start, .setTempo(150), .playMap(other)).tempo.bpm == 120)
  }

  /// Gains reach the beat generator through the rhythm, each factor kept within 0 to 16 (NaN as
  /// 0), and a reset, which undoes what the keys did, keeps them.
  @Test func gainsAreKeptInRangeAndThroughAReset() throws {
    let gains = reduce(try state(), .setGains(ClickGains(overall: 0.5, accented: 40, unaccented: .nan)), .reset).gains
    #expect(gains == ClickGains(overall: 0.5, accented: 16, unaccented: 0))
    #expect(reduce(try state(), .setGains(gains)).settings.rhythm.gains == gains)
    #expect(reduce(try state(), .setGains(ClickGains(overall: -1, accented: 1, unaccented: 1))).gains.overall == 0)
  }

  /// klick's speed trainer is the programme's, for the beats' source to ramp: the tempo stays the
  /// player's through a start, a stop and another trainer, and a key moves it from there.
  @Test func theSpeedTrainerIsTheProgrammesAndTheTempoStaysThePlayers() throws {
    let trainer = SpeedTrainer(increment: 8, start: 100, limit: 0)
    let training = reduce(
      try state("4/4", 120, playing: true), .setSpeedTrainer(trainer), .togglePlaying, .togglePlaying)
    #expect(training.settings.programme.speedTrainer == trainer && training.settings.tempo.bpm == 120)
    #expect(reduce(training, .nudgeTempo(by: 1)).tempo.bpm == 121)
    let off = reduce(training, .setSpeedTrainer(.off))
    #expect(off.settings.programme.speedTrainer == .off && off.tempo.bpm == 120)
    let map = try TempoMapParser.parse("4 4/4 100\n", source: "map")
    let withAMap = reduce(
      try state("4/4", 100, playing: true, programme: Programme(map: map)), .setSpeedTrainer(trainer))
    #expect(withAMap.settings.programme.speedTrainer == trainer && withAMap.tempo.bpm == 100)
  }

  /// A meter set whole is taken as written, beyond the cap its denominator sets; reset goes back
  /// to the first meter, tempo and pattern.
  @Test func aMeterSetWholeIsTakenAsWrittenAndResetGoesBack() throws {
    let start = try state(pattern: "X.x.")
    let seven = reduce(start, .setMeter(try Meter(7, 4, cap: .widest)))
    #expect(seven.meter.signature == "7/4" && seven.maxNumerator >= 7)
    let changed = reduce(seven, .setTempo(90), .setPattern(try AccentPattern(parsing: "Xx.x.xx")))
    #expect(changed.pattern.levels.count == 7 && changed.requestedPattern != start.requestedPattern)
    let reset = reduce(changed, .reset)
    #expect(reset.meter == .fourFour && reset.tempo.bpm == 120)
    // The numerator asked for goes back too, not only the one shown: a step to eighths shows 4/8.
    #expect(reset.requestedNumerator == 4)
    #expect(reduce(reset, .stepDenominator(by: 1)).meter.signature == "4/8")
    // And the cap: 7 beats a bar are no longer allowed over quarters.
    #expect(reduce(reset, .stepNumerator(by: 3)).meter.signature == "4/4")
    #expect(reset.requestedPattern == start.requestedPattern)
  }

  /// Mute and the second voice's mute toggle, and toggle back.
  @Test func mutesToggle() throws {
    let start = try state()
    #expect(reduce(start, .toggleMute).isMuted && !reduce(start, .toggleMute, .toggleMute).isMuted)
    #expect(reduce(start, .togglePolyrhythmMute).isPolyrhythmMuted)
  }

  /// Gains are kept from 0 (what is not above it) to the loudest.
  @Test func gainsAreKeptWithinTheirRange() throws {
    let set = reduce(try state(), .setGains(ClickGains(overall: 0, accented: -2, unaccented: 99)))
    #expect(set.gains == ClickGains(overall: 0, accented: 0, unaccented: ClickGains.loudest))
    let quiet = reduce(try state(), .setGains(ClickGains(overall: 0.5, accented: 1e-9, unaccented: 1)))
    #expect(quiet.gains == ClickGains(overall: 0.5, accented: 1e-9, unaccented: 1))
  }

  /// A map played anew starts at its tempo and meter, with no loop, no trainer's target and no
  /// sections held until earned left from the one before.
  @Test func aMapPlayedAnewStartsClean() throws {
    var earning = Programme(trainerTarget: 140, loopBars: 1...2)
    earning.holdsSections = true
    let looping = try state(programme: earning)
    let map = TempoMap(sections: [TempoMap.Section(bars: 2, meter: try Meter(5, 4, cap: .widest), tempo: .steady(96))])
    let playing = reduce(looping, .playMap(map))
    #expect(playing.meter.signature == "5/4" && playing.tempo.bpm == 96)
    #expect(!playing.programme.loopsSection && playing.programme.loopBars == nil)
    #expect(playing.programme.trainerTarget == nil && !playing.programme.holdsSections)
  }

  /// The click's level (where earned practice fades it away) scales the overall gain, kept from
  /// 0 to 1; NaN leaves it as it was, and the gains set are kept as they were.
  @Test func theClickLevelScalesTheOverallGainFromZeroToOne() throws {
    let loud = reduce(try state(), .setGains(ClickGains(overall: 2, accented: 1, unaccented: 1)))
    let overall = { (state: MetronomeState) in state.settings.rhythm.gains.overall }
    #expect(overall(reduce(loud, .setClickLevel(0.25))) == 0.5)
    #expect(overall(reduce(loud, .setClickLevel(-1))) == 0)
    #expect(overall(reduce(loud, .setClickLevel(3))) == 2)
    #expect(overall(reduce(loud, .setClickLevel(0.25), .setClickLevel(.nan))) == 0.5)
    #expect(reduce(loud, .setClickLevel(0.25)).gains == loud.gains)
  }

  /// The map loaded is kept while the steady tempo plays, to be played again: the run's own at
  /// the start (its file the run's to name), then each one loaded with its file; a map played
  /// without being loaded (the tempo in force as a map) leaves it; where a setlist or an outside
  /// clock decides what plays, loading changes nothing.
  @Test func theMapLoadedIsKeptWhileTheSteadyTempoPlays() throws {
    let map = { (bpm: Double) in TempoMap(sections: [TempoMap.Section(bars: 2, meter: .fourFour, tempo: .steady(bpm))])
    }
    #expect(try state().loadedMap == nil)
    let started = try state("4/4", 100, programme: Programme(map: map(100)))
    #expect(started.loadedMap == LoadedMap(map: map(100), file: nil))
    let steady = reduce(started, .playMap(nil))
    #expect(steady.programme.map == nil && steady.loadedMap == started.loadedMap)
    let loaded = reduce(steady, .togglePlaying, .loadMap(map(90), file: "b.map"))
    #expect(loaded.loadedMap == LoadedMap(map: map(90), file: "b.map"))
    #expect(loaded.programme.map == map(90) && loaded.tempo.bpm == 90 && !loaded.isPlaying)
    #expect(reduce(loaded, .playMap(map(70)), .playMap(nil)).loadedMap == loaded.loadedMap)
    let setlist = Setlist(songs: [Setlist.Song(title: "A", map: map(80))])
    let refused = reduce(try state(programme: Programme(setlist: setlist)), .loadMap(map(90), file: "b.map"))
    #expect(refused.loadedMap == LoadedMap(map: map(80), file: nil) && refused.programme.map == map(80))
    let anchor = TransportAnchor(
      id: 1, source: .jack, frame: 0, bar: 1, beatInBar: 1, tempo: .standard, meter: .fourFour)
    let following = reduce(try state(), .follow(anchor))
    #expect(reduce(following, .loadMap(map(90), file: "b.map")) == following)
  }

  /// A tap after the metronome started or stopped starts a new measurement.
  @Test func startingOrStoppingStartsTheTapsAnew() throws {
    let tapped = reduce(try state(), .tapTempo(atSeconds: 0), .togglePlaying, .tapTempo(atSeconds: 0.6))
    #expect(tapped.tempo.bpm == 120)
    #expect(reduce(tapped, .tapTempo(atSeconds: 1.2)).tempo.bpm == 100)
  }

  /// A setlist moves song by song, each at its own tempo and meter as asked for (the numerator
  /// too, beyond the cap its denominator sets), the taps begun anew; the last song's end, or the
  /// end of a song not playing, moves nothing; a setlist that waits stops between songs.
  @Test func aSetlistMovesSongBySong() throws {
    let songs = [(100.0, try Meter(4, 4)), (90, try Meter(7, 4, cap: .widest)), (80, try Meter(6, 8))].enumerated()
      .map { index, song in
        Setlist.Song(
          title: "\(index)", map: TempoMap(sections: [TempoMap.Section(bars: 2, meter: song.1, tempo: .steady(song.0))])
        )
      }
    for waits in [false, true] {
      let start = try state(
        playing: true, programme: Programme(setlist: Setlist(songs: songs, waitsBetweenSongs: waits)))
      let second = reduce(start, .tapTempo(atSeconds: 0), .songEnded(0), .tapTempo(atSeconds: 0.6))
      #expect(second.programme.song == 1 && second.tempo.bpm == 90)
      #expect(second.meter.signature == "7/4" && second.requestedNumerator == 7)
      #expect(second.isPlaying == !waits)
      #expect(reduce(second, .songEnded(0)).programme.song == 1)
      let third = reduce(second, .songEnded(1))
      #expect(third.programme.song == 2 && third.meter.signature == "6/8" && third.tempo.bpm == 80)
      #expect(reduce(third, .songEnded(2)).programme.song == 2)
      #expect(reduce(third, .moveSong(by: -2)).meter.signature == "4/4")
    }
  }
}
