import MetronomeCore
import PracticeListening
import Testing

/// The earned trainer's judge: each block's beats hit within tolerance against the mark.
@Suite(.timeLimit(.minutes(1)))
struct StepCoachTests {
  /// Blocks of one bar of 4/4 at 120 (24 000 frames a beat): sections 0 and 1 held a bar each,
  /// the last played for ever.
  private func coach(mark: Double = 0.75, stepsBack: Int = 0) -> StepCoach {
    StepCoach(mark: mark, tolerance: 20, sectionBars: [1, 1, nil], stepsBack: stepsBack)
  }

  private func beat(_ n: Int, section: Int = 0, subdivision: Int = 0) throws -> Beat {
    Beat(
      count: n, bar: n / 4 + 1, beatInBar: n % 4 + 1, meter: .fourFour, tempo: .standard, frame: Int64(n) * 24_000,
      sampleRate: .standard, subdivision: subdivision,
      section: Beat.Section(index: section, barInSection: 1))
  }

  /// Plays a block of four beats from beat `first`, hitting each at the offset (frames) given
  /// (nil: not hit); returns the verdict.
  private func block(_ coach: inout StepCoach, from first: Int, _ offsets: [Int64?], section: Int = 0) throws -> Int {
    for (index, offset) in offsets.enumerated() {
      let beat = try beat(first + index, section: section)
      let ends = coach.heard(beat)
      #expect(ends == (index == 3))
      if let offset { coach.played(Hit(frame: beat.frame + offset, note: 38, velocity: 100)) }
    }
    return coach.decide()
  }

  /// The mark met (3 of 4 at 75 %) earns the step, below it the block plays again; a hit exactly
  /// at the tolerance counts (960 frames is 20 ms), one a frame past it does not, nor a beat not hit.
  @Test func theMarkMetEarnsTheStepAndABeatNotHitCountsAgainst() throws {
    var judge = coach()
    #expect(try block(&judge, from: 0, [0, 960, -960, 961]) == 1)
    #expect(judge.lastBlock?.share == 0.75)
    #expect(try block(&judge, from: 4, [0, nil, -961, 5]) == 0)
    #expect(judge.lastBlock?.share == 0.5)
    #expect(try block(&judge, from: 8, [0, 0, 0, 0]) == 1)
  }

  /// Two blocks below the mark in a row fall back as many steps as asked, and the count starts
  /// again; one in between above it breaks the row; without steps back, it only plays again.
  @Test func twoBlocksBelowInARowFallBack() throws {
    var judge = coach(stepsBack: 2)
    let missed: [Int64?] = [nil, nil, 0, nil]
    #expect(try block(&judge, from: 0, missed) == 0)
    #expect(try block(&judge, from: 4, missed) == -2)
    #expect(try block(&judge, from: 8, missed) == 0)
    #expect(try block(&judge, from: 12, [0, 0, 0, 0]) == 1)
    #expect(try block(&judge, from: 16, missed) == 0)
    #expect(try block(&judge, from: 20, missed) == -2)
    var none = coach()
    #expect(try block(&none, from: 0, missed) == 0 && block(&none, from: 4, missed) == 0)
  }

  /// A hit just before a block's first beat is that beat's, not the last block's; subdivisions'
  /// clicks and the trainer's last section (played for ever) are no beats of a block.
  @Test func aBlocksBeatsAreItsOwn() throws {
    var judge = coach()
    for index in 0..<4 {
      _ = judge.heard(try beat(index))
      if index < 3 { judge.played(Hit(frame: Int64(index) * 24_000, note: 38, velocity: 100)) }
    }
    // An early hit for beat 4, played before the block was decided, counts for beat 4, not 3.
    judge.played(Hit(frame: 4 * 24_000 - 500, note: 38, velocity: 100))
    #expect(judge.decide() == 1)
    #expect(try block(&judge, from: 4, [nil, 0, 0, nil]) == 1)
    #expect(judge.heard(try beat(9, subdivision: 1)) == false)
    #expect(judge.heard(try beat(11, section: 2)) == false)
    #expect(judge.onTime == (0, 0))
  }

  /// At another rate, the tolerance is as many frames as its milliseconds make there: 20 ms is
  /// 882 frames at 44.1 kHz.
  @Test func theToleranceIsInTheBeatsOwnFrames() throws {
    var judge = coach(mark: 1)
    for index in 0..<4 {
      let beat = Beat(
        count: index, bar: 1, beatInBar: index + 1, meter: .fourFour, tempo: .standard, frame: Int64(index) * 22_050,
        sampleRate: try SampleRate(44_100), section: Beat.Section(index: 0, barInSection: 1))
      _ = judge.heard(beat)
      judge.played(Hit(frame: beat.frame + (index == 3 ? 883 : 882), note: 38, velocity: 100))
    }
    #expect(judge.decide() == 0 && judge.lastBlock?.share == 0.75)
  }

  @Test func theDisplaySaysTheBlockAsItFillsAndWhatTheLastLedTo() throws {
    var judge = coach(mark: 0.9)
    #expect(judge.displayLine == "earning the next step: 0 of 0 beats on time, 90% earns it")
    _ = judge.heard(try beat(0))
    #expect(judge.displayLine == "earning the next step: 0 of 1 beats on time (0%), 90% earns it")
    _ = judge.decide()
    var up = coach(mark: 0.5)
    #expect(try block(&up, from: 0, [0, 0, 0, 0]) == 1)
    #expect(up.displayLine.hasSuffix(" · last block 100%: up"))
    var down = coach(mark: 0.5, stepsBack: 1)
    _ = try block(&down, from: 0, [nil, nil, nil, nil])
    _ = try block(&down, from: 4, [nil, nil, nil, nil])
    #expect(down.displayLine.hasSuffix(" · last block 0%: down"))
    judge = coach(mark: 0.9)
    _ = judge.heard(try beat(0))
    judge.played(Hit(frame: 10, note: 38, velocity: 90))
    _ = judge.heard(try beat(1))
    #expect(judge.displayLine == "earning the next step: 1 of 2 beats on time (50%), 90% earns it")
    for n in 2...3 {
      let beat = try beat(n)
      _ = judge.heard(beat)
      judge.played(Hit(frame: beat.frame, note: 38, velocity: 90))
    }
    #expect(judge.decide() == 0)
    #expect(judge.displayLine == "earning the next step: 0 of 0 beats on time, 90% earns it · last block 75%: again")
  }
}
