import MetronomeAudio
import MetronomeCore
import Synchronization
import Testing

@testable import MetronomeRun

@Suite(.timeLimit(.minutes(5))) struct CaptureClockTests {
  /// What a capture device read 1,024 frames at a time at 48 kHz through a sound server gives, and
  /// what the clock let be heard of it.
  private struct Take {
    /// The run frame each period heard was placed on, by the period's number.
    var heard: [Int: Int64] = [:]
    /// The periods heard, in the order heard.
    var order: [Int] = []
    /// The periods whose take said the input lost frames or moved.
    var lost: [Int] = []
  }

  /// Reads 100 periods of an input whose frame 0 was heard 100 ms after the output's, the
  /// server's readings agreeing to 30 µs; from `skippedAt` on (a sound server that skipped a
  /// cycle) a quantum fewer, or the same with the device saying so at `overrunAt` (an overrun),
  /// or, at `lateAt`, one reading 6 ms late (a reader woken late).
  private func take(skippedAt: Int? = nil, overrunAt: Int? = nil, lateAt: Int? = nil) throws -> Take {
    let rate = try SampleRate(48_000)
    let period = 1_024
    let now = Mutex<Int64>(0)
    // The output's frame 0 was heard at 0.9 s.
    let clock = CaptureClock(sampleRate: rate, periodFrames: period) {
      let nanoseconds = now.withLock { $0 }
      return PlaybackPosition(heardFrames: (nanoseconds - 900_000_000) * 48 / 1_000_000, nanoseconds: nanoseconds)
    }
    var take = Take()
    for number in 0..<100 {
      // Each period is known by its first sample, heard however late.
      let samples = [Float](repeating: Float(number), count: period)
      let end = Int64((number + 1) * period)
      // Frame 0 heard at 1 s; read as the period ends, 30 µs late one time in three.
      let nanoseconds = 1_000_000_000 + end * 1_000_000 / 48 + (number % 3 == 0 ? 30_000 : 0)
      now.withLock { $0 = nanoseconds + (number == lateAt ? 6_000_000 : 0) }
      let lostAt = skippedAt ?? overrunAt
      let heardFrames = end - (lostAt.map { number >= $0 ? Int64(period) : 0 } ?? 0)
      samples.withUnsafeBufferPointer { samples in
        clock.take(
          samples, from: Int64(number * period),
          position: PlaybackPosition(heardFrames: heardFrames, nanoseconds: now.withLock { $0 }),
          lostFrames: number == overrunAt,
          lost: { take.lost.append(number) }
        ) { samples, first in
          take.heard[Int(samples[0])] = first
          take.order.append(Int(samples[0]))
        }
      }
    }
    return take
  }

  /// The offset each period heard was placed by, by its number.
  private func offsets(_ take: Take) -> [Int: Int64] {
    Dictionary(uniqueKeysWithValues: take.heard.map { ($0.key, $0.value - Int64($0.key * 1_024)) })
  }

  @Test func aSteadyInputIsHeardWholeAtOneOffsetOnceBothHaveSettled() throws {
    let take = try take()
    #expect(take.lost.isEmpty)
    // 4,800 frames: 100 ms, within a frame; heard in order, from the first period placed on.
    #expect(offsets(take).values.allSatisfy { abs($0 - 4_800) <= 1 })
    #expect(take.order == Array((take.order.first ?? 0)..<100) && take.order.count >= 70)
  }

  /// One reading 6 ms late is set aside, and what was read meanwhile is heard as placed.
  @Test func aReaderWokenLateOnceLosesNothing() throws {
    let steady = try take()
    let late = try take(lateAt: 60)
    #expect(late.lost.isEmpty && late.heard == steady.heard && late.order == steady.order)
  }

  /// A sound server that skipped a cycle, which its readings say from the first period read after
  /// it: the stream is said to have moved at the third, and no period from the first on is heard
  /// at the old offset, where it would be placed a cycle early; every one before is heard, and the
  /// periods after the input has settled again are placed a cycle later.
  @Test func noPeriodReadAfterASkippedCycleIsPlacedACycleEarly() throws {
    let steady = try take()
    let skipped = try take(skippedAt: 60)
    let offsets = offsets(skipped)
    #expect(skipped.lost == [62])
    #expect(skipped.order.filter { $0 < 60 } == steady.order.filter { $0 < 60 })
    #expect(offsets.filter { $0.key >= 60 }.values.allSatisfy { abs($0 - 5_824) <= 1 })
    #expect(offsets.keys.contains(99) && !offsets.keys.contains(60) && !offsets.keys.contains(61))
  }

  /// A device that says it lost frames is read anew from there: it is not said to have moved again
  /// when its readings come later, and nothing after is placed by the old offset.
  @Test func aDeviceThatSaysItLostFramesIsReadAnewFromThere() throws {
    let overrun = try take(overrunAt: 60)
    #expect(overrun.lost == [60])
    #expect(offsets(overrun).filter { $0.key >= 60 }.values.allSatisfy { abs($0 - 5_824) <= 1 })
    #expect(offsets(overrun).keys.contains(99))
  }
}
