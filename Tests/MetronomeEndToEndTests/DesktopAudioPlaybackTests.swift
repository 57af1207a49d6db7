import Foundation
import MetronomeAudio
import MetronomeTesting
import XCTest

/// Plays through ALSA's `default` device where, as on a desktop, that is a sound server: PipeWire
/// (with WirePlumber) or PulseAudio, each started headless for the test by `scripts/desktop-audio`,
/// playing into a null sink that it records, and stopped by process id when the run ends.
///
/// The suite itself is the load: the other tests' builds and processes run beside these.
final class DesktopAudioPlaybackTests: FolderTestCase {
  /// Five takes of a fifteen-second run through a server started for each, which a loaded machine
  /// may need (`retakenWhileTheHarnessGlitches`), fit in it; two minutes held four.
  override class var timeLimit: Double { 300 }

  /// One run of metronome through a sound server, and what the server played.
  private struct Take {
    let run: TimedRun
    /// The beats metronome printed, as their ndjson objects.
    let printed: [[String: Any]]
    /// The clicks found in the recording of the sink.
    let onsets: [Onset]

    /// The beats that were played rather than skipped.
    var played: [[String: Any]] { printed.filter { $0["skipped"] == nil } }
    /// The beats skipped after a glitch.
    var skipped: [[String: Any]] { printed.filter { $0["skipped"] as? Bool == true } }

    /// What is off in the recording: every beat played is heard once, within one frame of the
    /// grid the first click set, beat one accented, and nothing else is heard.
    var problems: [String] { problems(in: onsets) }

    /// The same, with each click allowed `tolerance` frames off its grid.
    func problems(tolerance: Int) -> [String] { problems(in: onsets, tolerance: tolerance) }

    /// What is off in the recording after a glitch that metronome reported: the glitch may have
    /// cut the click that was playing, whose rest then plays when the stream goes on (a stop of the
    /// whole process, a sound server that let the stream run dry) or whose head was lost.
    ///
    /// One onset more is taken for that rest when it is quieter than the click just before it, and
    /// leaving it out leaves nothing off; a whole click heard again is never taken for one. One
    /// click heard off its grid by no more than the frames the glitch lost, beside the `tolerance`
    /// any click has, is taken for a click whose head was cut, when it is the only one off (one
    /// heard 85 frames late after 84 were lost, with 1 frame of tolerance, failed a loaded run).
    func problemsAfterAGlitch(tolerance: Int = 1) -> [String] {
      if onsets.count == played.count + 1 {
        for index in onsets.indices.dropFirst() where onsets[index].peak < onsets[index - 1].peak {
          if problems(in: onsets(without: index), tolerance: tolerance).isEmpty { return [] }
        }
        // A failure says what else was off without the onset nearest the one before it, the
        // likeliest rest of a cut click, not only that there was one onset too many.
        let nearest = onsets.indices.dropFirst().min {
          onsets[$0].frame - onsets[$0 - 1].frame < onsets[$1].frame - onsets[$1 - 1].frame
        }
        if let nearest {
          return problems(tolerance: tolerance)
            + [
              "without the onset at \(onsets[nearest].frame): "
                + problems(in: onsets(without: nearest), tolerance: tolerance).joined(separator: "; ")
            ]
        }
      } else if let offsets = offsets(of: onsets) {
        let off = offsets.indices.filter { abs(offsets[$0].heard - offsets[$0].scheduled) > tolerance }
        if let cut = off.first, off.count == 1,
          abs(offsets[cut].heard - offsets[cut].scheduled) <= lostFrames + tolerance
        {
          return problems(in: onsets, tolerance: tolerance, ignoring: cut)
        }
      }
      return problems(tolerance: tolerance)
    }

    /// The onsets heard but the one at `index`.
    private func onsets(without index: Int) -> [Onset] {
      onsets.enumerated().filter { $0.offset != index }.map(\.element)
    }

    /// The frames metronome said glitches lost, from its last lines.
    private var lostFrames: Int {
      let line = run.standardError.split(separator: "\n").first { $0.hasPrefix("metronome: glitches lost ") }
      let milliseconds = line.flatMap { Double($0.split(separator: " ")[3]) } ?? 0
      return Int((milliseconds * 48).rounded(.up))
    }

    /// Each played click's offset in frames from the grid the first of `onsets` set; nil when
    /// not as many clicks were heard as played.
    private func offsets(of onsets: [Onset]) -> [(heard: Int, scheduled: Int)]? {
      let frames = played.compactMap { $0["frame"] as? Int }
      guard onsets.count == frames.count, let first = onsets.first, let firstFrame = frames.first else { return nil }
      return zip(onsets, frames).map { ($0.frame - first.frame, $1 - firstFrame) }
    }

    /// What is off in `onsets`, the click at index `ignoring` (one a glitch cut) left out.
    private func problems(in onsets: [Onset], tolerance: Int = 1, ignoring: Int? = nil) -> [String] {
      guard let offsets = offsets(of: onsets) else {
        return ["\(onsets.count) clicks heard for \(played.count) beats played: \(onsets.map(\.frame))"]
      }
      let kept = offsets.indices.filter { $0 != ignoring }
      var problems = kept.map { offsets[$0] }.filter { abs($0.heard - $0.scheduled) > tolerance }
        .map { "heard at \($0.heard), scheduled at \($0.scheduled)" }
      let accents = kept.map { played[$0]["beat"] as? Int == 1 }
      if kept.map({ onsets[$0].peak > 0.8 }) != accents {
        problems.append("accents heard on \(kept.map { onsets[$0].peak > 0.8 })")
      }
      return problems
    }

    /// How far each played beat's line came from when its click was heard, at worst
    /// (`TimedRun.worstLateness`).
    var worstLineLateness: Double {
      TimedRun.worstLateness(
        arrivals: zip(run.lines, printed).filter { $1["skipped"] == nil }.map(\.0.seconds),
        times: played.compactMap { $0["time"] as? Double })
    }
  }

  /// Runs `metronome ARGUMENTS --headless --events ndjson` through `server` until `check` finds
  /// nothing off in the take; `onLine` sees each line's index and metronome's process id as the
  /// line arrives, and `harnessTrouble` says, after each take and from what the stall watch saw
  /// beside it, what the test's own doing or the machine got wrong in it beyond a stall.
  ///
  /// A take that is off while the machine itself stalled (see `StallWatch`, whose thread a stop
  /// of metronome does not hold) says nothing about metronome: a stall holds the server and the
  /// recorder too, which then lose or add whole periods of the recording (a recorder stopped for
  /// some 50 ms moved it by 8192 frames, with metronome's stream whole). It is taken again, up to five
  /// times in all; one that is off on a machine that did not stall fails the test at once.
  private func take(
    _ server: String, _ arguments: [String], check: (Take) -> [String], onLine: (Int, pid_t) -> Void = { _, _ in },
    harnessTrouble: (Take, StallReport) -> [String] = { _, _ in [] }
  ) throws -> Take? {
    // A take that fails says the longest stall beside it too, under the threshold as well: a loaded
    // run's underrun with none over 15 ms seen could not be told the machine's or metronome's.
    var stall = StallReport(longest: 0)
    return try retakenWhileTheHarnessGlitches(
      check: { take in
        let problems = check(take)
        return problems.isEmpty ? [] : problems + [stall.described]
      },
      {
        let watch = StallWatch()
        let take = try takeOnce(server, arguments, onLine: onLine)
        stall = watch.stop()
        return (take, stall.glitches(over: 0.015) + harnessTrouble(take, stall))
      })
  }

  /// One take of `metronome ARGUMENTS` through `server`, as `take` describes it.
  private func takeOnce(_ server: String, _ arguments: [String], onLine: (Int, pid_t) -> Void) throws -> Take {
    let capture = folder.appendingPathComponent("capture.wav")
    let pidFile = folder.appendingPathComponent("metronome.pid")
    let run = try TimedRun.run(
      [server, capture.path, MetronomeProcess.binary.path, "--headless", "--events", "ndjson"] + arguments,
      executable: MetronomeProcess.repository.appendingPathComponent("scripts/desktop-audio"),
      environment: ["DESKTOP_AUDIO_PIDFILE": pidFile.path],
      onLine: { index in
        let text = try? String(contentsOf: pidFile, encoding: .utf8)
        if let pid = text.flatMap({ pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) { onLine(index, pid) }
      })
    let printed = try run.lines.map {
      try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.text.utf8)) as? [String: Any], $0.text)
    }
    let samples = try WAVFile(contentsOf: capture).samples
    return Take(run: run, printed: printed, onsets: Onset.detect(in: samples, sampleRate: 48_000))
  }

  /// How far PulseAudio's position, an estimate, strays on a busy machine: 96 frames.
  ///
  /// About 2 ms, as the man page says. What a gap cost is measured from it, so the clicks after
  /// one are off by as much: soaks saw 11, 32 and 73 frames, a loaded run 72 (5.15 ms said lost,
  /// the clicks 1.5 ms early), and with nothing lost the estimate stepped 76 and 102 frames behind.
  private static let pulseAudioEstimateStrays = 96
  private static let schedulingFIFO = 1

  /// The threads of process `pid` by name, each with its id.
  ///
  /// The main thread is called "main": threads it starts take its name until they choose one.
  private static func threads(of pid: pid_t) -> [String: String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    var threads: [String: String] = [:]
    for task in tasks {
      guard let name = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8) else { continue }
      threads[task == "\(pid)" ? "main" : name.trimmingCharacters(in: .whitespacesAndNewlines)] = task
    }
    return threads
  }

  /// A thread's scheduling: its policy and real-time priority.
  private struct Scheduling: Equatable, CustomStringConvertible {
    let policy: Int
    let priority: Int

    var description: String { "policy \(policy) priority \(priority)" }
  }

  /// Each thread of process `pid` by name, with its scheduling (fields 41 and 40 of its `stat`).
  private static func schedulingPolicies(of pid: pid_t) -> [String: Scheduling] {
    threads(of: pid).compactMapValues { task in
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
        let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 38,
        let policy = Int(fields[38]), let priority = Int(fields[37])
      else { return nil }
      // After the name's closing parenthesis, field 3 (the state) comes first: 41 is at 38.
      return Scheduling(policy: policy, priority: priority)
    }
  }

  /// How much later than its click is heard a line may come: 50 ms.
  private static let lineAllowance = 0.05

  /// Fifteen seconds at 137 BPM through PipeWire with the defaults.
  ///
  /// No underrun, every click on its frame, each line printed when its click is heard, and the
  /// threads that carry the audio (metronome's render thread, and the client thread of PipeWire's
  /// ALSA plugin) at real-time priority, as root has it, and the main thread, which prints the
  /// lines, at a lower one. So a line late beside a machine that held threads at that priority as
  /// long is the machine's (`StallReport.lineHeld`), and the take is taken again.
  func testFifteenSecondsThroughPipeWirePlayOnTheGridWithTheDefaults() throws {
    var policies: [String: Scheduling] = [:]
    let take = try take("pipewire", ["137", "--duration", "15"]) { take in
      let errors = take.run.standardError
      var problems = take.problems
      if take.run.status != 0 { problems.append("status \(take.run.status)") }
      if !errors.contains("buffer 1024 frames") { problems.append("not the default buffer") }
      if !errors.contains("metronome: 0 underruns\n") || errors.contains("glitch") {
        problems.append("it underran or glitched")
      }
      if take.played.count != 35 { problems.append("\(take.played.count) beats played") }
      if take.worstLineLateness >= Self.lineAllowance { problems.append("a line \(take.worstLineLateness) s late") }
      return problems.isEmpty ? [] : problems + [errors]
    } onLine: { index, pid in
      if index == 2 { policies = Self.schedulingPolicies(of: pid) }
    } harnessTrouble: { take, stall in
      stall.lineHeld(late: take.worstLineLateness, allowed: Self.lineAllowance)
    }

    XCTAssertNotNil(take)
    let audio = Scheduling(policy: Self.schedulingFIFO, priority: Int(RealtimePriority.priority))
    XCTAssertEqual(policies["render"], audio, "\(policies)")
    XCTAssertEqual(policies["alsa-pipewire"], audio, "\(policies)")
    XCTAssertEqual(
      policies["main"], Scheduling(policy: Self.schedulingFIFO, priority: Int(RealtimePriority.showingPriority)),
      "\(policies)")
    XCTAssertLessThan(RealtimePriority.showingPriority, RealtimePriority.priority)
  }

  /// The render thread held through PipeWire, as a busy machine may hold it, while the rest of the
  /// process runs on (the plugin's client thread takes the audio): for 13 ms after each of lines
  /// 2 to 17, which never runs the 1024-frame buffer dry, then for 50 ms after line 19, which does
  /// once: the buffer grows to 2048 frames, what was lost is said, and every click is back on its
  /// grid to the frame. (One take for both: each live take is one more that a stall of the whole
  /// machine can make the harness take again.)
  ///
  /// PipeWire's plugin takes the whole buffer each cycle, so room comes all at once: a writer that
  /// slept through a whole write's shortfall could learn of it half a cycle late, and one hold in
  /// eight of 13 to 17 ms then ran the buffer dry. And the grown buffer must not change the
  /// server's cycle: the plugin asks for cycles of the stream's wake-up size, and when that grew
  /// with the buffer, every click after the underrun was heard a whole 1024-frame cycle late, with
  /// nothing said.
  func testTheRenderThreadHeldThroughPipeWireRunsTheBufferDryOnlyPastItsLengthAndKeepsTheGrid() throws {
    try holdTheRenderThread(through: "pipewire", for: 50, tolerance: 1, shortHolds: 16)
  }

  /// The hold through PulseAudio, whose positions place the grid to within a millisecond after an
  /// underrun (`testFifteenSecondsThroughPulseAudioUnderrunAtMostOnceAndKeepTheGrid`).
  ///
  /// Held 30 ms: longer than the first buffer (21.33 ms), shorter than the grown one (42.67 ms).
  /// Beside a busy machine PulseAudio's first buffer may already have underrun and grown, as the
  /// fifteen seconds allow; a 50 ms hold then ran the grown buffer dry too (two underruns, the
  /// buffer at 4096 frames). This one is shorter than the grown buffer, but does not always leave
  /// it full: a second 30 ms hold after a first ran it dry in 1 take of 8 (MEASUREMENTS).
  func testTheRenderThreadHeldPastTheFirstBufferThroughPulseAudioGrowsItAndKeepsTheGrid() throws {
    try holdTheRenderThread(through: "pulseaudio", for: 30, tolerance: Self.pulseAudioEstimateStrays, shortHolds: 0)
  }

  /// Plays six seconds at 240 BPM through `server`, with `HeldThread` holding the render thread
  /// for 13 ms after each of `shortHolds` lines from the third, then for `hold` milliseconds after
  /// the twentieth, and checks what the tests above say, each click within `tolerance` frames of
  /// its grid.
  private func holdTheRenderThread(through server: String, for hold: Int, tolerance: Int, shortHolds: Int) throws {
    let holder = try HeldThread.holder(in: folder)
    var held: [Bool] = []
    // A hold the holder let go of late may run the buffer dry where it was not to: the harness's.
    var overlong: [String] = []
    let take = try take(server, ["240", "--duration", "6"]) { take in
      let errors = take.run.standardError
      var problems = take.problemsAfterAGlitch(tolerance: tolerance)
      if take.run.status != 0 { problems.append("status \(take.run.status)") }
      if !errors.contains("metronome: 1 underrun\n") { problems.append("not one underrun") }
      if !errors.contains("the buffer grew from 1024 to 2048 frames") {
        problems.append("the buffer did not grow from 1024 to 2048")
      }
      if !errors.contains("metronome: glitches lost ") { problems.append("the loss not said") }
      if take.printed.count != 24 { problems.append("\(take.printed.count) beats printed") }
      return problems.isEmpty ? [] : problems + [errors]
    } onLine: { index, pid in
      let milliseconds = index == 19 ? hold : (2..<2 + shortHolds).contains(index) ? 13 : nil
      guard let milliseconds, let render = try? HeldThread(in: pid, where: { name, _ in name == "render" }) else {
        return
      }
      let hold = try? render.hold(milliseconds: milliseconds, with: holder)
      held.append(hold != nil)
      overlong += hold?.overran ?? []
    } harnessTrouble: { _, _ in
      defer { overlong = [] }
      return overlong
    }

    XCTAssertNotNil(take)
    XCTAssertGreaterThanOrEqual(held.count, shortHolds + 1, "the render thread was not found")
    XCTAssertEqual(Set(held), [true], "the render thread was not held")
  }

  /// Fifteen seconds at 137 BPM through PulseAudio with the defaults: at most one underrun.
  ///
  /// The plugin's client thread (`threaded-ml`, which carries every write) runs at real-time
  /// priority. Beside the suite the server may let the stream run dry once; then the buffer grows
  /// so that it does not again, and the clicks come back on their grid. PulseAudio's position is
  /// an estimate between its timing updates, which places the stream to within a few frames, so
  /// the clicks are held to 16 frames (a third of a millisecond), and a gap to within what the
  /// estimate strays by (`pulseAudioEstimateStrays`) after an underrun or a glitch it reported.
  func testFifteenSecondsThroughPulseAudioUnderrunAtMostOnceAndKeepTheGrid() throws {
    var policies: [String: Scheduling] = [:]
    let take = try take("pulseaudio", ["137", "--duration", "15"]) { take in
      let errors = take.run.standardError
      let underruns = errors.split(separator: "\n").compactMap { line in
        line.hasPrefix("metronome: ") && line.contains(" underrun") ? Int(line.split(separator: " ")[1]) : nil
      }
      let underran = underruns.first ?? 0 > 0
      // A glitch may cut a click, as `problemsAfterAGlitch` says; the grid after it is placed by
      // PulseAudio's estimate of its position, good to some frames, as after an underrun.
      let glitched = errors.contains("metronome: glitches lost")
      let tolerance = underran || glitched ? Self.pulseAudioEstimateStrays : 16
      var problems = glitched ? take.problemsAfterAGlitch(tolerance: tolerance) : take.problems(tolerance: tolerance)
      if take.run.status != 0 { problems.append("status \(take.run.status)") }
      if underruns.count != 1 || underruns[0] > 1 { problems.append("underruns: \(underruns)") }
      if errors.contains("the buffer grew from 1024 to 2048 frames") != underran {
        problems.append("the buffer grew \(underran ? "not " : "")without an underrun")
      }
      if take.printed.count != 35 { problems.append("\(take.printed.count) beats printed") }
      return problems.isEmpty ? [] : problems + [errors]
    } onLine: { index, pid in
      if index == 2 { policies = Self.schedulingPolicies(of: pid) }
    }

    XCTAssertNotNil(take)
    XCTAssertEqual(policies["render"]?.policy, Self.schedulingFIFO, "\(policies)")
    XCTAssertEqual(policies["threaded-ml"]?.policy, Self.schedulingFIFO, "\(policies)")
  }

  /// A process stopped for 300 ms comes back on its grid.
  ///
  /// The whole process is stopped and continued, as a machine that is busy elsewhere may do: the
  /// sink plays on without it. The beats that fell in the gap are skipped and said to be, every
  /// click after it is back on the grid to the frame, and nothing sounds twice.
  func testAProcessStoppedFor300MillisecondsComesBackOnTheGridThroughPipeWire() throws {
    // At 240 BPM a beat falls every 250 ms, so the gap always holds one.
    var stoppedAfter: Int?
    let take = try take("pipewire", ["240", "--duration", "6"]) { take in
      let errors = take.run.standardError
      var problems = take.problemsAfterAGlitch()
      if take.run.status != 0 { problems.append("status \(take.run.status)") }
      if take.printed.count != 24 { problems.append("\(take.printed.count) beats printed") }
      let skipped = take.skipped.count
      if skipped < 1 { problems.append("no beat skipped") }
      if !errors.contains("the clicks kept their grid, skipping \(skipped) beat\(skipped == 1 ? "" : "s")\n") {
        problems.append("the skipped beats not said")
      }
      return problems.isEmpty ? [] : problems + [errors]
    } onLine: { index, pid in
      guard index == 8 else { return }
      stoppedAfter = index
      kill(pid, SIGSTOP)
      usleep(300_000)
      kill(pid, SIGCONT)
    }

    XCTAssertNotNil(take)
    XCTAssertEqual(stoppedAfter, 8, "metronome was not stopped")
  }
}
