import AudioListening
import Foundation
import MetronomeCore
import MetronomeTesting

/// `MetronomeBenchmark rooms`: the single-copy canceller (`ClickCanceller`, live before the room
/// canceller, given the exact round trip as `calibrate --loopback` would measure it) beside the
/// room canceller (`EchoPathCanceller`, given no round trip at all) on simulated rooms
/// (`RoomTake`): for each, the strokes missed, the clicks taken for strokes, the worst and mean
/// distance of the strokes found from where their sound starts, and the CPU each listener took;
/// the room canceller's figures over the single-copy one's; then the room canceller told a round
/// trip 50 and 100 ms shorter than the clicks take (devices that leave part of it out).
///
/// The rooms are seeded: sizes from a booth to a hall, reverberation times from 0.2 to 0.8 s, the
/// microphone 0.3 to 3 m from the speaker, the click from 30 dB below the drums to as loud as them,
/// one in three in eighths; counted in for a bar as a listening run counts in (the bar's clicks,
/// its first two beats undivided); then Hydrogen's kit played on, early and late by up to 10 ms,
/// soft and hard.
enum RoomBenchmark {
  /// What one listener made of one take.
  struct Score {
    var missed = 0
    var invented = 0
    var worst = 0.0
    var meanSum = 0.0
    var found = 0
    var seconds = 0.0
    /// The longest a cycle of 256 frames took to listen to, in seconds.
    var longestCycle = 0.0

    /// The mean distance in ms of the strokes found from where their sound starts.
    var mean: Double { found > 0 ? meanSum / Double(found) : 0 }
  }

  static func run(rooms count: Int = 24) throws {
    let rate = try SampleRate(RoomTake.sampleRate)
    var totals = (single: Score(), room: Score())
    var audioSeconds = 0.0
    var takes: [RoomTake] = []
    print(
      "room                                   | single copy: missed invented worst mean | room: missed invented worst mean"
        + " | learned after"
    )
    for corpus in SeededRooms.benchmarkCorpus(count: count) {
      let (room, level, subdivisions) = (corpus.room, corpus.clickLevel, corpus.subdivisions)
      let take = try RoomTake(
        room: room, clickLevel: level, subdivisions: subdivisions, countIn: 4, countInApart: false, seed: corpus.seed)
      audioSeconds += Double(take.input.count) / Double(rate.hz)
      takes.append(take)
      let single = score(
        AudioHitListener(canceller: ClickCanceller(roundTrip: Int64(take.direct)), sampleRate: rate), take, rate)
      let learned = score(AudioHitListener(canceller: EchoPathCanceller(roundTrip: 0), sampleRate: rate), take, rate)
      totals.single = add(totals.single, single)
      totals.room = add(totals.room, learned)
      let name = String(
        format: "%4.1f×%3.1f×%3.1f m, RT60 %.1f s, %.1f m, %+3.0f dB%@", room.size.0, room.size.1, room.size.2,
        room.reverberation, room.distance, level, subdivisions > 1 ? ", 8ths" : "      ")
      print("\(name) | \(line(single)) | \(line(learned)) | \(learnedAfter(take).map { "\($0) clicks" } ?? "never")")
    }
    print("all                                    | \(line(totals.single)) | \(line(totals.room))")
    for milliseconds in [50, 100] {
      let short = Int64(milliseconds * rate.hz / 1_000)
      let total = takes.reduce(Score()) { total, take in
        add(
          total, score(AudioHitListener(canceller: EchoPathCanceller(roundTrip: -short), sampleRate: rate), take, rate))
      }
      print(
        "all, the round trip told \(milliseconds) ms short".padding(toLength: 39, withPad: " ", startingAt: 0)
          + "|                                        | \(line(total))")
    }
    for (name, total) in [("the single-copy canceller", totals.single), ("the room canceller", totals.room)] {
      print(
        "\(name): \(String(format: "%.3f", total.seconds)) s for \(String(format: "%.0f", audioSeconds)) s of audio,"
          + " \(String(format: "%.3f", total.seconds / audioSeconds * 100 * 48_000 / Double(rate.hz))) % of one core at 48 kHz;"
          + " its longest cycle \(String(format: "%.3f", total.longestCycle * 1_000)) ms of the"
          + " \(String(format: "%.1f", 256_000 / Double(rate.hz))) ms 256 frames last"
      )
    }
    print(
      "room over single copy: clicks taken \(totals.room.invented) / \(totals.single.invented),"
        + " strokes missed \(totals.room.missed) / \(totals.single.missed),"
        + " CPU \(String(format: "%.2f", totals.room.seconds / max(totals.single.seconds, 1e-9)))×")
    try printEchoLeft()
  }

  /// How much of each click's echo the room canceller leaves (ERLE, dB) over 16 clicks at 120 BPM
  /// with no drums, in three rooms like those SpeexDSP is measured in by scripts/bench-rooms.
  private static func printEchoLeft() throws {
    print("the room canceller, 16 clicks at 120 BPM, no drums: echo left after each click (ERLE, dB)")
    for room in [
      SimulatedRoom(size: (6, 5, 3), reverberation: 0.6, speaker: (1, 1, 1.5), microphone: (3, 2.5, 1.2)),
      SimulatedRoom(size: (4, 3.5, 2.5), reverberation: 0.4, speaker: (1, 1, 1), microphone: (1.8, 1.6, 1)),
      SimulatedRoom(size: (10, 8, 4), reverberation: 0.8, speaker: (2, 2, 1.5), microphone: (4.8, 3, 1.2)),
    ] {
      let take = try RoomTake(room: room, clickLevel: -12, beats: 16, skipped: 16, seed: 1)
      var left = [Float](repeating: 0, count: take.input.count)
      cancel(take) { frame, sample in left[frame] = sample }
      let clicks = take.clicks + [take.input.count]
      let figures = zip(clicks, clicks.dropFirst()).map { start, end in
        let window = start..<end
        let remaining = window.reduce(0.0) { $0 + Double(left[$1] * left[$1]) }
        let echo = window.reduce(0.0) { $0 + Double(take.echo[$1] * take.echo[$1]) }
        return String(format: "%.0f", 10 * log10(remaining / echo + 1e-20))
      }
      print(
        String(format: "  %.1f×%.1f×%.1f m, RT60 %.1f s: ", room.size.0, room.size.1, room.size.2, room.reverberation)
          + figures.joined(separator: " "))
    }
  }

  /// After how many clicks the room canceller leaves less than -40 dB of each click's echo (the
  /// peak of what it leaves of the echo, against the echo's, over each click's first 2,048
  /// frames), from then on; nil where it never does.
  private static func learnedAfter(_ take: RoomTake) -> Int? {
    // What is left of the echo alone: the canceller's output less the drums it heard.
    var left = [Float](repeating: 0, count: take.input.count)
    cancel(take) { frame, sample in left[frame] = sample - (take.input[frame] - take.echo[frame]) }
    let heard = take.clicks.map { click in
      let window = (click + take.direct)..<min(click + take.direct + 2_048, left.count)
      let echo = window.map { abs(take.echo[$0]) }.max() ?? 0
      let error = window.map { abs(left[$0]) }.max() ?? 0
      return error <= echo / 100
    }
    guard let last = heard.lastIndex(where: { !$0 }) else { return 0 }
    return last + 1 < heard.count ? last + 1 : nil
  }

  /// Runs the room canceller, told no round trip, over `take` 256 frames at a time as a sound
  /// server calls, and gives `body` each frame it lets out, with what it left of the input there.
  private static func cancel(_ take: RoomTake, _ body: (Int, Float) -> Void) {
    let canceller = EchoPathCanceller(roundTrip: 0)
    take.output.withUnsafeBufferPointer { output in
      take.input.withUnsafeBufferPointer { input in
        for start in stride(from: 0, to: input.count, by: 256) {
          let end = min(start + 256, input.count)
          canceller.played(UnsafeBufferPointer(rebasing: output[start..<end]), from: Int64(start))
          canceller.cancel(UnsafeBufferPointer(rebasing: input[start..<end]), from: Int64(start)) { block, _, first in
            for (index, sample) in block.enumerated() { body(Int(first) + index, sample) }
          }
        }
      }
    }
  }

  /// How `listener` heard `take`: strokes matched to attacks within 25 ms (the detector's spacing).
  private static func score(_ listener: AudioHitListener, _ take: RoomTake, _ rate: SampleRate) -> Score {
    var score = Score()
    var found: [Int] = []
    // Cycle by cycle, as a sound server calls: the longest is what must fit in a cycle's time.
    // The thread's own processor time, so that another process run in between is not counted.
    for start in stride(from: 0, to: take.input.count, by: 256) {
      let end = min(start + 256, take.input.count)
      let started = threadSeconds()
      take.input[start..<end].withUnsafeBufferPointer { input in
        take.output[start..<end].withUnsafeBufferPointer { output in
          listener.listen(input: input, output: output, from: Int64(start)) { attack, _ in
            found.append(Int(attack.frame))
          }
        }
      }
      let seconds = threadSeconds() - started
      score.seconds += seconds
      score.longestCycle = max(score.longestCycle, seconds)
    }
    let window = rate.hz / 40
    var unmatched = found
    for attack in take.attacks {
      guard let nearest = unmatched.indices.min(by: { abs(unmatched[$0] - attack) < abs(unmatched[$1] - attack) }),
        abs(unmatched[nearest] - attack) <= window
      else {
        score.missed += 1
        continue
      }
      let error = Double(abs(unmatched[nearest] - attack)) * 1000 / Double(rate.hz)
      score.worst = max(score.worst, error)
      score.meanSum += error
      score.found += 1
      unmatched.remove(at: nearest)
    }
    score.invented = unmatched.count
    return score
  }

  /// The processor time this thread has used, in seconds.
  private static func threadSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }

  private static func add(_ total: Score, _ score: Score) -> Score {
    var sum = total
    sum.missed += score.missed
    sum.invented += score.invented
    sum.worst = max(sum.worst, score.worst)
    sum.meanSum += score.meanSum
    sum.found += score.found
    sum.seconds += score.seconds
    sum.longestCycle = max(sum.longestCycle, score.longestCycle)
    return sum
  }

  private static func line(_ score: Score) -> String {
    String(format: "%3d %3d %6.2f ms %5.2f ms", score.missed, score.invented, score.worst, score.mean)
  }
}
