import CombineSchedulers
import Glibc
import MetronomeAudio
import MetronomeControl
import MetronomeCore
import MetronomeEngine
import MetronomeSession
import MetronomeTesting
import MetronomeViewModel
import PracticeListening
import TerminalUI
import Testing

extension MetronomeSession {
  /// Takes `bytes` as typed on the terminal, as `SystemEvents` delivers them.
  func type(_ bytes: [UInt8]) { SessionInput.typed(bytes).forEach(receive) }
}

/// A watcher of a session that keeps the beats it is told of and how the session ended, and
/// says `saying` as it ends.
@MainActor
final class BeatWatcher: SessionObserver {
  private(set) var told: [Beat] = []
  private(set) var ends: [SessionEnd] = []
  private let saying: String?
  let hearsEveryClick: Bool

  init(saying: String? = nil, hearsEveryClick: Bool = true) {
    self.saying = saying
    self.hearsEveryClick = hearsEveryClick
  }

  func heard(_ beat: Beat) { told.append(beat) }

  func ended(_ end: SessionEnd, say: (String) -> Void) {
    ends.append(end)
    saying.map(say)
  }
}

private struct DeviceGone: Error, CustomStringConvertible {
  var description: String { "the device went away" }
}

/// A session on a virtual main queue, rendering inline into a fake device whose every write
/// advances that queue by the period's length, as a real device's pace would.
///
/// Keys, signals and the end of input are delivered at chosen virtual times.
@MainActor
final class Harness {
  let mainQueue = TestScheduler<AudioTime, Never>(now: 0)
  let sink: FakeAudioSink
  let screen = FakeScreen()
  let engine: ClickEngine
  private(set) var standardOutput: [String] = []
  /// When each line of standard output was written, on the main queue's clock.
  private(set) var writtenAt: [AudioTime] = []
  private(set) var standardError: [String] = []
  private(set) var exitStatus: Int32?
  private(set) var exitCount = 0
  /// How many lines the reader of standard output takes before it goes away.
  var linesRead = Int.max
  private(set) var session: MetronomeSession<TestScheduler<AudioTime, Never>>?

  init(
    _ settings: PlaybackSettings = PlaybackSettings(), keys: String = "", display: Bool = false,
    style: DisplayStyle = .standard, soundOnly: Bool = false, observers: [any SessionObserver] = [],
    delayFrames: Int64 = 1_024,
    periodFrames: Int = 512, practice: Practice? = nil
  ) throws {
    let mainQueue = self.mainQueue
    sink = FakeAudioSink(delayFrames: delayFrames) { frames in
      mainQueue.advance(by: .frames(Int64(frames), at: .standard))
    }
    engine = ClickEngine(settings: settings)
    session = MetronomeSession(
      engine: engine, sink: sink, periodFrames: periodFrames, keys: try KeyScript(parsing: keys),
      presentation: display ? .display(screen, colors: false, style: style) : soundOnly ? .soundOnly : .headless(.text),
      outputName: "fake",
      reportsUnderruns: true, rendering: .inline, mainQueue: mainQueue,
      outputs: .init(
        standardOutput: { [unowned self] in
          standardOutput.append($0)
          writtenAt.append(mainQueue.now)
          return standardOutput.count <= linesRead
        },
        standardError: { [unowned self] in standardError.append($0) },
        exit: { [unowned self] in
          exitStatus = exitStatus ?? $0
          exitCount += 1
        }), observers: observers, practice: practice)
  }

  /// Delivers `event` to the session at `seconds` on the main queue.
  func at(_ seconds: Double, _ event: @escaping @MainActor (MetronomeSession<TestScheduler<AudioTime, Never>>) -> Void)
  {
    mainQueue.schedule(after: AudioTime(seconds: seconds)) { [unowned self] in
      MainActor.assumeIsolated { if let session { event(session) } }
    }
  }

  /// Plays until the run ends, then lets the main queue finish what is left.
  func run() {
    session?.start()
    mainQueue.run()
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct MetronomeSessionTests {
  @Test func aRunThatPlaysOutPrintsEveryBeatAsHeardThenEndsWithStatusZero() throws {
    let harness = try Harness(PlaybackSettings(length: .beats(3)))
    harness.run()

    #expect(
      harness.standardOutput == [
        "0.000000 bar 1 beat 1 accent\n", "0.500000 bar 1 beat 2 regular\n", "1.000000 bar 1 beat 3 regular\n",
      ])
    #expect(harness.standardError == ["metronome: 0 underruns\n"])
    #expect(harness.exitStatus == 0)
    #expect(harness.sink.isFinished)
  }

  /// Each line waits for its beat to be heard: the beat's frame plus the device's delay, here
  /// 12 000 frames, whatever the period it was rendered in.
  @Test func aBeatIsShownWhenItIsHeardNotWhenItIsRendered() throws {
    let harness = try Harness(PlaybackSettings(length: .beats(3)), delayFrames: 12_000, periodFrames: 4_800)
    harness.run()

    #expect(harness.writtenAt == [0.25, 0.75, 1.25])
    #expect(harness.exitStatus == 0)
  }

  /// A quit in a key script ends the run on its own frame, in every mode: beats before it play,
  /// none after, and the run ends as one that played out.
  @Test func aScriptedQuitEndsTheRunOnItsFrame() throws {
    let harness = try Harness(keys: "1.9 q\n")
    harness.run()

    #expect(harness.standardOutput.count == 4)
    #expect(harness.sink.samples.count == 91_200)
    #expect(harness.exitStatus == 0)
  }

  /// A virtual run its key script's last key leaves paused ends there, and says so.
  ///
  /// Only the script plays such a run on: it ends just after that key's frame (the beat on it
  /// still heard), where it rendered silence until the longest run before. A pause the script
  /// takes back (the run starts again from its first bar, eight beats more) or a quit after it
  /// ends as before.
  @Test(arguments: [
    ("1.5 space\n", 4, 72_001, "metronome: the keys left the run paused at 1.5 s; it ends there\n"),
    ("1.5 space\n2 space\n", 12, 288_000, nil),
    ("1.5 space\n2 q\n", 4, 96_000, nil),
  ])
  func aVirtualRunLeftPausedByItsLastKeyEndsThere(keys: String, beats: Int, frames: Int, note: String?) throws {
    let harness = try Harness(PlaybackSettings(length: .beats(8)), keys: keys)
    harness.run()

    #expect(harness.standardOutput.count == beats)
    #expect(harness.sink.samples.count == frames)
    #expect(harness.standardError == (note.map { [$0] } ?? []) + ["metronome: 0 underruns\n"])
    #expect(harness.exitStatus == 0)
  }

  /// The tempo key at 6.0 s lands on frame 288 000 of the audio clock, so the first beat after it
  /// is the first at 147, whatever the wall clock does.
  @Test func scriptedKeysLandOnTheAudioClock() throws {
    let harness = try Harness(PlaybackSettings(tempo: try Tempo(bpm: 137), length: .seconds(7)), keys: "6.0 up\n")
    var tempos: [Double] = []
    let recording = harness.engine.beats.sink { tempos.append($0.tempo.bpm) }
    harness.run()
    recording.cancel()

    // Beat 13 of the 137 grid falls at 5.69 s, beat 14 would at 6.13 s: from it on, 147.
    #expect(tempos == Array(repeating: 137, count: 14) + Array(repeating: 147, count: 3))
  }

  @Test(arguments: [(String, [UInt8])]([("q", [UInt8(ascii: "q")]), ("Esc", [0x1B])]))
  func aQuitKeyEndsWithStatusZeroAndGivesTheTerminalBack(name: String, bytes: [UInt8]) throws {
    let harness = try Harness(display: true)
    harness.at(1.2) { $0.type(bytes) }
    harness.run()

    #expect(harness.exitStatus == 0, "\(name)")
    #expect(harness.screen.restoreCount == 1)
    #expect(harness.standardError == ["metronome: 0 underruns\n"])
    // Stopped at 1.2 s: the render loop ends after the period it was writing.
    #expect(harness.sink.samples.count < 60_000)
    #expect(!harness.sink.isFinished)
  }

  @Test(arguments: [(Int32(SIGINT), Int32(130)), (Int32(SIGTERM), Int32(143)), (Int32(SIGHUP), Int32(129))])
  func aSignalEndsWithItsShellStatusAndGivesTheTerminalBack(signal: Int32, status: Int32) throws {
    let watcher = BeatWatcher()
    let harness = try Harness(display: true, observers: [watcher])
    harness.at(0.5) { $0.receive(.interrupted(signal: signal)) }
    harness.run()

    #expect(harness.exitStatus == status)
    #expect(harness.screen.restoreCount == 1)
    // The watchers are told so, once, with the signal's name, and how long it played.
    let name = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"][signal] ?? ""
    #expect(watcher.ends.map(\.reason) == ["interrupted (\(name))"])
    #expect(watcher.ends.map(\.status) == [status])
    #expect(watcher.ends.first.map { abs($0.seconds - 0.5) < 0.02 } == true)
  }

  /// However a run ends, its watchers are told once, with why, before its last lines, which say
  /// what they had to say; a run that listened hands them its hits.
  @Test func everyEndIsToldToTheWatchersOnceWithWhy() throws {
    let ends: [(String, (MetronomeSession<TestScheduler<AudioTime, Never>>) -> Void, String, Int32)] = [
      ("q", { $0.receive(.command(.quit)) }, "quit", 0),
      ("end of input", { $0.receive(.inputClosed) }, "standard input closed", 0),
      (
        "a device gone", { $0.receive(.sourceFailed("the capture device stopped")) },
        "failed: the capture device stopped", 1
      ),
    ]
    for (name, end, reason, status) in ends {
      let watchers = [BeatWatcher(saying: "kept"), BeatWatcher()]
      let harness = try Harness(observers: watchers)
      harness.at(1.1) { end($0) }
      harness.run()
      #expect(watchers.map { $0.ends.map(\.reason) } == [[reason], [reason]], "\(name)")
      #expect(watchers[0].ends.first?.status == status, "\(name)")
      #expect(harness.standardError.contains("metronome: kept\n"), "\(name)")
      #expect(
        harness.standardError.last?.hasPrefix(status == 0 ? "metronome: 0 underruns" : "Error: ") == true, "\(name)")
    }
    let played = BeatWatcher()
    let harness = try Harness(
      PlaybackSettings(length: .beats(3)), observers: [played], practice: Practice(scorer: HitScorer(tolerance: 15)))
    harness.run()
    #expect(played.ends.map(\.reason) == ["played to its end"])
    #expect(played.ends.first?.scorer?.tolerance == 15)
    #expect(played.told.count == 3)
  }

  @Test func closedInputEndsTheRunWithANote() throws {
    let harness = try Harness(display: true)
    harness.at(0.3) { $0.receive(.inputClosed) }
    harness.run()

    #expect(harness.exitStatus == 0)
    #expect(harness.standardError == ["metronome: standard input closed; stopped\n", "metronome: 0 underruns\n"])
    #expect(harness.screen.restoreCount == 1)
  }

  @Test func aDeviceThatStopsEndsTheRunWithOneErrorLineAndStatusOne() throws {
    let harness = try Harness(display: true)
    harness.at(0.7) { [sink = harness.sink] _ in sink.failure = DeviceGone() }
    harness.run()

    #expect(harness.exitStatus == 1)
    #expect(harness.standardError == ["metronome: 0 underruns\n", "Error: the device went away\n"])
    #expect(harness.screen.restoreCount == 1)
  }

  /// `--events none`: nothing is printed, yet a beat a glitch skipped is counted in the report.
  @Test func aSoundOnlyRunPrintsNothingButCountsSkippedBeats() throws {
    let harness = try Harness(PlaybackSettings(length: .beats(3)), soundOnly: true)
    harness.sink.lostFrames = [24_000]
    harness.run()

    #expect(harness.standardOutput.isEmpty)
    #expect(
      harness.standardError == [
        "metronome: 0 underruns\n",
        "metronome: glitches lost 500 ms of playback; the clicks kept their grid, skipping 1 beat\n",
      ])
    #expect(harness.exitStatus == 0)
    #expect(harness.sink.isFinished)
  }

  /// Only beats count as skipped: the subdivisions (at 8 000, 16 000 and 32 000) and the second
  /// voice's click (at 32 000) lost with the beat at 24 000 are not beats the player missed.
  @Test func subdivisionsAndTheSecondVoiceLostInAGlitchAreNotCountedAsSkippedBeats() throws {
    let harness = try Harness(
      PlaybackSettings(subdivision: try Subdivision(3), polyrhythm: 3, length: .beats(3)), soundOnly: true)
    harness.sink.lostFrames = [36_000]
    harness.run()

    #expect(
      harness.standardError == [
        "metronome: 0 underruns\n",
        "metronome: glitches lost 750 ms of playback; the clicks kept their grid, skipping 1 beat\n",
      ])
  }

  @Test func underrunsAreCountedAndReportedOnce() throws {
    let harness = try Harness(PlaybackSettings(length: .beats(2)))
    harness.sink.underrunCount = 3
    harness.run()

    #expect(
      harness.standardError == ["metronome: 3 underruns\n", "metronome: underruns at 0, 0 and 0 s into the run\n"])
  }

  /// Each underrun is said where in the run it came, at the period whose write found it.
  ///
  /// In periods of 512 frames, the one from 23 552 takes the run past 0.5 s, the one from 59 904
  /// past 1.25. One is said alone; past eight, the first eight are, and of how many.
  @Test func underrunsAreSaidWhereTheyCameInTheRun() throws {
    let harness = try Harness(PlaybackSettings(length: .beats(4)))
    harness.at(0.5) { _ in harness.sink.underrunCount = 1 }
    harness.at(1.25) { _ in harness.sink.underrunCount = 3 }
    harness.run()
    let one = try Harness(PlaybackSettings(length: .beats(4)))
    one.at(0.5) { _ in one.sink.underrunCount = 1 }
    one.run()
    let many = try Harness(PlaybackSettings(length: .beats(4)))
    many.at(0.5) { _ in many.sink.underrunCount = 2 }
    many.at(1.25) { _ in many.sink.underrunCount = 10 }
    many.run()

    #expect(
      harness.standardError == [
        "metronome: 3 underruns\n", "metronome: underruns at 0.49, 1.25 and 1.25 s into the run\n",
      ])
    #expect(one.standardError == ["metronome: 1 underrun\n", "metronome: underrun at 0.49 s into the run\n"])
    #expect(
      many.standardError == [
        "metronome: 10 underruns\n",
        "metronome: underruns at 0.49, 0.49, 1.25, 1.25, 1.25, 1.25, 1.25 and 1.25 s into the run, the first 8 of 10\n",
      ])
  }

  @Test func aBufferGrownAfterUnderrunsIsReported() throws {
    let harness = try Harness(PlaybackSettings(length: .beats(2)), delayFrames: 1_024)
    harness.sink.underrunCount = 1
    harness.sink.bufferFrames = 2_048
    harness.run()

    #expect(
      harness.standardError == [
        "metronome: 1 underrun\n", "metronome: underrun at 0 s into the run\n",
        "metronome: after underruns the buffer grew from 1024 to 2048 frames (42.67 ms)\n",
      ])
  }

  /// A typed key takes effect on the first frame not yet rendered, which is heard after what the
  /// device holds: here the period being written (512 frames) and the device's 1 024, 32 ms.
  @Test func theTimeATypedKeyTakesToBeHeardIsReported() throws {
    let harness = try Harness(PlaybackSettings(length: .seconds(2)), display: true)
    harness.at(1.0) { $0.type(Array("+".utf8)) }
    harness.run()

    #expect(harness.standardError == ["metronome: 0 underruns\n", "metronome: typed keys were heard within 32 ms\n"])
  }

  /// A command that comes from another source than the keyboard (a remote control) takes the
  /// same way in: it changes what plays from the next frame, and a quit ends the run.
  @Test func aCommandFromAnySourceReachesTheStateMachine() throws {
    let harness = try Harness()
    harness.at(0.1) { $0.receive(.command(.nudgeTempo(10))) }
    harness.at(0.2) { $0.receive(.command(.stepNumerator(-1))) }
    harness.at(1.2) { $0.receive(.command(.quit)) }
    harness.run()

    #expect(harness.engine.viewModel.currentState.tempo.bpm == 130)
    #expect(harness.engine.viewModel.currentState.meter.numerator == 3)
    #expect(harness.exitStatus == 0)
  }

  /// An action sets a value, as a remote control asks for it; heard beats, and not skipped ones,
  /// reach whoever watches the session, each when its line is printed.
  @Test func anActionSetsAValueAndHeardBeatsAreTold() throws {
    let watcher = BeatWatcher()
    let harness = try Harness(PlaybackSettings(length: .beats(4)), observers: [watcher])
    harness.sink.lostFrames = [0, 0, 0, 0, 24_000]
    harness.at(0.1) { $0.receive(.action(.setTempo(60))) }
    harness.run()

    #expect(harness.engine.viewModel.currentState.tempo.bpm == 60)
    #expect(watcher.told.map { "\($0.beatInBar)@\($0.frame)" } == ["1@0", "3@72000", "4@120000"])
    #expect(harness.standardOutput.filter { !$0.contains("skipped") }.count == watcher.told.count)
  }

  /// A run that shows no beats still tells each heard click to every watcher it was given (a
  /// remote control's clients want them), the second as the first; a watcher of the bar's beats
  /// alone (the journal) is told those only, with or without others beside it.
  @Test func aSoundOnlyRunTellsHeardBeatsToItsWatchers() throws {
    let divided = PlaybackSettings(subdivision: try Subdivision(2), length: .beats(3))
    let watchers = [BeatWatcher(), BeatWatcher(), BeatWatcher(hearsEveryClick: false)]
    let harness = try Harness(divided, soundOnly: true, observers: watchers)
    harness.run()
    let clicks: [Int64] = [0, 12_000, 24_000, 36_000, 48_000, 60_000]
    #expect(watchers.map { $0.told.map(\.frame) } == [clicks, clicks, [0, 24_000, 48_000]])
    #expect(harness.standardOutput.isEmpty)
    let alone = BeatWatcher(hearsEveryClick: false)
    try Harness(divided, soundOnly: true, observers: [alone]).run()
    #expect(alone.told.map(\.frame) == [0, 24_000, 48_000])
  }

  /// The display shows what the view model's outputs say: a change sent to the view model
  /// (not to the display) appears on the screen, and the lit beat follows what is heard.
  @Test func theDisplayIsBoundToTheViewModelsOutputs() throws {
    let harness = try Harness(display: true)
    var screens: [String] = []
    harness.at(0.3) { _ in screens.append(harness.screen.text) }
    harness.at(1.0) { [viewModel = harness.engine.viewModel] _ in
      viewModel.tempo.send(97.5)
      viewModel.steppedNumerator.send(3)
      viewModel.steppedDenominator.send(2)
    }
    harness.at(2.0) { _ in screens.append(harness.screen.text) }
    harness.at(2.1) { $0.type(Array(" ".utf8)) }
    harness.at(2.2) { _ in screens.append(harness.screen.text) }
    harness.at(2.25) { $0.type(Array("33".utf8)) }
    harness.at(2.28) { _ in screens.append(harness.screen.text) }
    harness.at(2.3) { $0.type(Array("q".utf8)) }
    harness.run()

    #expect(screens[0].hasPrefix(" metronome  120 BPM  4/4  playing\n\n >X< [x] [x] [x]"), "\(screens[0])")
    #expect(screens[0].contains(" bar 1  beat 1 of 4"))
    let changed = screens[1].split(separator: "\n", omittingEmptySubsequences: false)
    #expect(changed[0] == " metronome  97.5 BPM  3/8  playing")
    #expect(changed[2].split(separator: " ").count == 3, "one cell per beat of 3/8: \(changed[2])")
    #expect(changed[4].hasSuffix(" of 3"))
    #expect(screens[2].hasPrefix(" metronome  97.5 BPM  3/8  paused\n\n [X] [x] [x]"), "\(screens[2])")
    #expect(screens[3].contains("\n [X] [x] [.] \n"), "key 3 twice makes beat 3 weak, then silent: \(screens[3])")
    #expect(screens[2].contains(" fake · latency"))
    #expect(screens[2].contains(" bar –  beat –"), "a pause forgets the position: \(screens[2])")
    #expect(harness.exitStatus == 0)
  }

  /// While klick's speed trainer ramps the tempo, the display shows the tempo of each beat as it
  /// is heard, from the trainer's start: the tempo set stays the player's.
  @Test func theDisplayShowsTheTempoASpeedTrainerRampsToAsItIsHeard() throws {
    let harness = try Harness(display: true)
    var screens: [String] = []
    harness.at(0.1) { $0.type(Array(" ".utf8)) }
    harness.at(0.2) { [viewModel = harness.engine.viewModel] _ in
      viewModel.dispatch(.setSpeedTrainer(SpeedTrainer(increment: 40, start: 100, limit: 0)))
    }
    harness.at(0.3) { $0.type(Array(" ".utf8)) }
    // Heard 1 024 frames late: beat one at 0.32 s, beat two at 0.92 s, beat three (110) at 1.47 s.
    harness.at(0.5) { _ in screens.append(harness.screen.text) }
    harness.at(1.6) { _ in screens.append(harness.screen.text) }
    harness.at(1.7) { $0.type(Array("q".utf8)) }
    harness.run()

    #expect(screens[0].hasPrefix(" metronome  100 BPM  4/4  playing"), "\(screens[0])")
    #expect(screens[1].hasPrefix(" metronome  110 BPM  4/4  playing"), "\(screens[1])")
    #expect(harness.engine.viewModel.currentState.tempo.bpm == 120)
  }

  /// With a setlist the display shows the song, the section and bar and what comes next; a bar
  /// a gap mutes is counted, marked; a song's end stops on the next song; the song keys choose
  /// another, and play counts it in.
  @Test func theDisplayFollowsASetlistItsSectionsAndItsSongs() throws {
    let opener = try TempoMapParser.parse("verse: 1 2/4 120\nchorus: 2 2/4 120 gap=1:1\n", source: "opener")
    let ballad = try TempoMapParser.parse("1 3/4 60\n", source: "ballad")
    let setlist = Setlist(
      songs: [Setlist.Song(title: "Opener", map: opener), Setlist.Song(title: "Ballad", map: ballad)],
      waitsBetweenSongs: true)
    let harness = try Harness(
      PlaybackSettings(meter: try Meter(2, 4), programme: Programme(setlist: setlist)), display: true)
    var screens: [String] = []
    for seconds in [0.1, 1.1, 3.1, 4.5] { harness.at(seconds) { _ in screens.append(harness.screen.text) } }
    harness.at(4.6) { $0.type(Array("B".utf8)) }
    harness.at(4.65) { _ in screens.append(harness.screen.text) }
    harness.at(4.7) { $0.type(Array(" ".utf8)) }
    harness.at(4.8) { _ in screens.append(harness.screen.text) }
    harness.at(4.9) { $0.type(Array("q".utf8)) }
    harness.run()

    #expect(screens[0].hasPrefix(" metronome  120 BPM  2/4  playing  count-in"), "\(screens[0])")
    #expect(screens[0].contains(" Opener (1/2)"))
    #expect(
      screens[1].contains(" Opener (1/2)\n verse (1/2) · bar 1 of 1\n next: chorus 120 BPM 2/4 in 1 bar"),
      "\(screens[1])")
    #expect(screens[2].contains(" -X- [x]"), "\(screens[2])")
    #expect(
      screens[2].contains("(gap)\n Opener (1/2)\n chorus (2/2) · bar 2 of 2\n next song: Ballad in 1 bar"),
      "\(screens[2])")
    #expect(screens[3].hasPrefix(" metronome  60 BPM  3/4  paused"), "\(screens[3])")
    #expect(screens[3].contains(" Ballad (2/2)"))
    #expect(screens[4].hasPrefix(" metronome  120 BPM  2/4  paused"), "\(screens[4])")
    #expect(screens[4].contains(" Opener (1/2)"))
    #expect(screens[5].hasPrefix(" metronome  120 BPM  2/4  playing  count-in"), "\(screens[5])")
    #expect(harness.exitStatus == 0)
  }

  /// The beat at 1.5 s is rendered by 1.504 s and heard at 1.521 s; a pause at 1.51 s comes
  /// between, and the pause has forgotten the position: the beat is not shown.
  @Test func aBeatHeardAfterAPauseIsNotShown() throws {
    let harness = try Harness(display: true)
    var screen = ""
    harness.at(1.51) { $0.type(Array(" ".utf8)) }
    harness.at(1.6) { _ in screen = harness.screen.text }
    harness.at(1.7) { $0.type(Array("q".utf8)) }
    harness.run()

    #expect(screen.contains(" bar –  beat –"), "\(screen)")
  }

  /// `metronome --headless | head -2`: once the reader is gone, the run ends at once with a note.
  @Test func aRunEndsWhenNobodyReadsItsLinesAnyMore() throws {
    let harness = try Harness()
    harness.linesRead = 2
    harness.run()

    #expect(harness.standardOutput.count == 3)
    #expect(harness.exitStatus == 0)
    #expect(harness.standardError == ["metronome: standard output closed; stopped\n", "metronome: 0 underruns\n"])
    #expect(!harness.sink.isFinished)
  }

  /// Whatever is typed, whenever, and whatever else happens, the session ends exactly once.
  ///
  /// It ends with a status a shell expects and gives the terminal back. Deterministic by seed.
  @Test func anyTypingEndsExactlyOnceWithAStatusAndTheTerminalBack() throws {
    var random = SeededGenerator(seed: 20_261_122)
    for round in 0..<200 {
      let harness = try Harness(PlaybackSettings(length: .seconds(3)), display: true)
      for _ in 0..<Int.random(in: 0...12, using: &random) {
        let bytes = (0..<Int.random(in: 1...8, using: &random)).map { _ in
          Bool.random(using: &random)
            ? UInt8.random(in: 0...255, using: &random)
            : Array(" +-*/t][}{r\u{1B}[A".utf8)
              .randomElement(using: &random) ?? 0
        }
        harness.at(Double.random(in: 0...3, using: &random)) { $0.type(bytes) }
      }
      switch Int.random(in: 0..<6, using: &random) {
      case 0: harness.at(Double.random(in: 0...3, using: &random)) { $0.receive(.interrupted(signal: SIGTERM)) }
      case 1: harness.at(Double.random(in: 0...3, using: &random)) { $0.receive(.inputClosed) }
      case 2: harness.at(Double.random(in: 0...3, using: &random)) { $0.receive(.resized) }
      default: break
      }
      harness.run()

      #expect([0, 143].contains(harness.exitStatus), "round \(round)")
      #expect(harness.exitCount == 1, "round \(round)")
      #expect(harness.screen.restoreCount == 1, "round \(round)")
    }
  }
}
