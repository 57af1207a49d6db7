import AudioListening
import Testing

@Suite(.timeLimit(.minutes(5))) struct EarliestReadingTests {
  /// Readings of a device whose frame 0 was heard at 1,000,000 µs, each up to `late` µs late.
  private func readings(every step: Int64, for span: Int64, late: (Int64) -> Double) -> EarliestReading {
    var earliest = EarliestReading()
    for now in stride(from: 2_000_000, to: 2_000_000 + span, by: Int(step)) {
      earliest.read(1_000_000 + late(now), atMicros: now)
    }
    return earliest
  }

  @Test func theEarliestOfReadingsLateByUpToAPeriodIsTheTruth() {
    // A position that moves every 5.8 ms and is read at every phase of that: the mean would be
    // 2.9 ms late, the earliest is within the readings' spacing of the truth.
    let earliest = readings(every: 700, for: 2_000_000) { Double($0 % 5_805) }
    #expect(earliest.isSettled)
    #expect(abs((earliest.estimate ?? 0) - 1_000_000) < 700)
  }

  @Test func itSettlesAfterHalfASecond() {
    #expect(readings(every: 1_000, for: 400_000) { _ in 0 }.isSettled == false)
    #expect(readings(every: 1_000, for: 600_000) { _ in 0 }.isSettled)
    #expect(EarliestReading().estimate == nil)
  }

  @Test func aStreamThatMovedLaterIsFollowedWithinASecond() {
    // From 3 s on, every reading is 2 ms later (a sound server's cycle ran late and the stream
    // kept its frames): after a second the estimate has followed.
    var earliest = readings(every: 1_000, for: 1_000_000) { _ in 0 }
    for now in stride(from: 3_000_000, to: 4_100_000, by: 1_000) { earliest.read(1_002_000, atMicros: Int64(now)) }
    #expect(earliest.estimate == 1_002_000)
  }

  /// Right after a new span starts, its first reading does not move the estimate.
  ///
  /// The first reading of a span is late, as most are: the span before still counts, for a whole
  /// span more, then it ages out. A span is whole at exactly half a second. (The stream's first
  /// reading, 50 ms before, is not taken.)
  @Test func theSpanBeforeCountsRightAfterANewOneStarts() {
    var earliest = EarliestReading()
    earliest.read(0, atMicros: 1_950_000)
    earliest.read(1_000_000, atMicros: 2_000_000)
    for now in stride(from: 2_001_000, through: 2_499_999, by: 1_000) { earliest.read(1_003_000, atMicros: Int64(now)) }
    earliest.read(1_003_000, atMicros: 2_499_999)
    #expect(!earliest.isSettled)
    earliest.read(1_004_000, atMicros: 2_500_000)
    #expect(earliest.isSettled)
    #expect(earliest.estimate == 1_000_000)
    for now in stride(from: 2_501_000, to: 3_000_000, by: 1_000) { earliest.read(1_003_000, atMicros: Int64(now)) }
    #expect(earliest.estimate == 1_000_000)
    earliest.read(1_005_000, atMicros: 3_000_000)
    #expect(earliest.estimate == 1_003_000)
  }

  /// A stream whose readings agree (to 30 µs, as PipeWire's do) that comes back one server
  /// cycle later, 10.7 ms, lost that cycle's frames: it starts anew at the third such reading in
  /// a row, and says so once.
  @Test func aStreamWhoseReadingsAgreeStartsAnewAtTheThirdReadingAfterItCameBackACycleLater() {
    var earliest = readings(every: 1_000, for: 1_000_000) { $0 % 3_000 == 0 ? 30 : 0 }
    let doubtedBefore = earliest.isDoubted
    let first = earliest.read(1_010_667, atMicros: 3_000_000)
    let second = earliest.read(1_010_670, atMicros: 3_001_000)
    let between = earliest.estimate
    let doubtedBetween = earliest.isDoubted
    let third = earliest.read(1_010_660, atMicros: 3_002_000)
    let estimate = earliest.estimate
    let settled = earliest.isSettled
    let doubtedAfter = earliest.isDoubted
    let fourth = earliest.read(1_010_670, atMicros: 3_003_000)
    #expect(!first && !second && between == 1_000_000)
    #expect(third && estimate == 1_010_660 && !settled && !fourth)
    // In doubt from the first late reading until the third says the stream moved, not after.
    #expect(!doubtedBefore && doubtedBetween && !doubtedAfter && !earliest.isDoubted)
  }

  /// One reading late, then one that agrees: in doubt only in between.
  @Test func aReadingThatAgreesEndsTheDoubt() {
    var earliest = readings(every: 1_000, for: 1_000_000) { $0 % 3_000 == 0 ? 30 : 0 }
    earliest.read(1_006_000, atMicros: 3_000_000)
    let doubted = earliest.isDoubted
    earliest.read(1_000_010, atMicros: 3_001_000)
    #expect(doubted && !earliest.isDoubted && earliest.estimate == 1_000_000)
  }

  /// Readings may come as late as twice the readings' spread after the estimate and 2 ms more
  /// (here 30 µs of spread: 2.06 ms) without moving the stream, not a microsecond more.
  @Test(arguments: [(1_002_060.0, false), (1_002_061, true)])
  func readingsLaterThanTwiceTheSpreadAnd2msMoved(reading: Double, moves: Bool) {
    var earliest = readings(every: 1_000, for: 1_000_000) { $0 % 3_000 == 0 ? 30 : 0 }
    let moved = (0..<3).map { earliest.read(reading, atMicros: 3_000_000 + Int64($0)) }
    #expect(moved == [false, false, moves] && earliest.estimate == (moves ? reading : 1_000_000))
  }

  /// One or two readings late in a row are a reader woken late: no move, and they are set aside,
  /// not taken into the spread, so that three in a row 3 ms late after them still move it.
  @Test func oneOrTwoLateReadingsInARowAreSetAside() {
    var earliest = readings(every: 1_000, for: 1_000_000) { _ in 0 }
    let late = [(1_006_000.0, 3_000_000), (1_000_000, 3_001_000), (1_005_700, 3_002_000), (1_005_700, 3_003_000)]
      .map { earliest.read($0.0, atMicros: Int64($0.1)) }
    let before = earliest.estimate
    let moved =
      (0..<3).map { earliest.read(1_000_000, atMicros: 3_004_000 + Int64($0)) }
      + (0..<3).map { earliest.read(1_003_000, atMicros: 3_010_000 + Int64($0)) }
    #expect(late == [false, false, false, false] && before == 1_000_000)
    #expect(moved == [false, false, false, false, false, true])
  }

  /// Where the readings spread over a whole period (21.3 ms), one 40 ms late is within what they
  /// allow, and only the spans' ageing follows a stream that moved by less.
  @Test func aReadingWithinTwiceTheSpreadOfAPeriodIsNoMove() {
    var earliest = readings(every: 1_000, for: 1_000_000) { Double($0 % 21_333) }
    let before = earliest.estimate
    let moved = earliest.read(1_040_000, atMicros: 2_999_500)
    #expect(!moved && earliest.estimate == before)
  }

  /// Before it has settled, the spread is not yet known: a reading 10 ms after the first is no
  /// move.
  @Test func aReadingLateBeforeItSettledIsNoMove() {
    var earliest = EarliestReading()
    earliest.read(1_000_000, atMicros: 0)
    earliest.read(1_000_000, atMicros: 50_000)
    let moved = earliest.read(1_010_000, atMicros: 51_000)
    #expect(!moved && earliest.estimate == 1_000_000)
  }

  /// The readings of a stream's first 50 ms are not taken (PipeWire's first ones may come a
  /// whole cycle early), from 50 ms on they are.
  @Test func theReadingsOfAStreamsFirst50msAreNotTaken() {
    var earliest = EarliestReading()
    earliest.read(978_667, atMicros: 2_000_000)
    earliest.read(978_667, atMicros: 2_021_000)
    earliest.read(1_000_000, atMicros: 2_049_999)
    let starting = earliest.estimate
    earliest.read(1_000_000, atMicros: 2_050_000)
    #expect(starting == nil && earliest.estimate == 1_000_000)
  }

  /// A reading 50 ms from the estimate, exactly, is a stream read late, not one that moved.
  @Test func aReadingExactly50msAwayKeepsTheSpansRead() {
    var earliest = readings(every: 1_000, for: 1_000_000) { _ in 0 }
    let moved = earliest.read(950_000, atMicros: 3_000_000)
    #expect(!moved)
    #expect(earliest.isSettled)
    #expect(earliest.estimate == 950_000)
  }

  /// A jump of more than 50 ms either way starts anew and says so, once.
  ///
  /// The readings after it agree with it. The first reading taken is no jump.
  @Test(arguments: [900_000.0, 1_050_001])
  func aJumpOfMoreThan50msStartsAnewAndSaysSo(reading: Double) {
    var first = EarliestReading()
    first.read(0, atMicros: 0)
    let firstMoved = first.read(reading, atMicros: 50_000)
    var earliest = readings(every: 1_000, for: 1_000_000) { _ in 0 }
    let jumped = earliest.read(reading, atMicros: 3_000_000)
    let estimate = earliest.estimate
    let settled = earliest.isSettled
    let movedAgain = earliest.read(reading, atMicros: 3_001_000)
    #expect(!firstMoved && jumped && estimate == reading && !settled && !movedAgain)
  }
}
