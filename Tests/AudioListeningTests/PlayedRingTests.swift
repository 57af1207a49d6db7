import AudioListening
import Testing

@Suite(.timeLimit(.minutes(5))) struct PlayedRingTests {
  /// What `readNew` gives, as (first frame, samples) pieces.
  private func read(_ ring: PlayedRing) -> [(Int64, [Float])] {
    var pieces: [(Int64, [Float])] = []
    ring.readNew { pieces.append(($1, Array($0))) }
    return pieces
  }

  @Test func theReaderGetsWhatWasWrittenSinceItLastReadOnce() {
    let ring = PlayedRing()
    #expect(read(ring).isEmpty)
    [Float](repeating: 0.5, count: 256).withUnsafeBufferPointer { ring.write($0, from: 0) }
    [Float](repeating: 0.25, count: 256).withUnsafeBufferPointer { ring.write($0, from: 256) }
    let pieces = read(ring)
    #expect(pieces.map(\.0) == [0])
    let expected = [Float](repeating: 0.5, count: 256) + [Float](repeating: 0.25, count: 256)
    #expect(pieces.first.map { $0.1 == expected } == true)
    #expect(read(ring).isEmpty)
  }

  /// Frames are read from their own slots whatever the first frame: an odd one too.
  @Test func writingFromAnOddFrameReadsBackEachFramesOwnSample() {
    let ring = PlayedRing()
    let first: Int64 = 1_000_001
    (0..<300).map(Float.init).withUnsafeBufferPointer { ring.write($0, from: first) }
    let pieces = read(ring)
    #expect(pieces.map(\.0) == [first])
    #expect(pieces.first.map { $0.1 == (0..<300).map(Float.init) } == true)
  }

  @Test func aReaderFarBehindGetsTheNewestHalfOfTheRingInTwoPiecesWhereItWraps() {
    let ring = PlayedRing()
    let block = (0..<4_096).map(Float.init)
    // 40 blocks: the newest half of the ring, from frame 98,304 on, wraps at 131,072.
    for start in stride(from: 0, to: 163_840, by: 4_096) {
      block.withUnsafeBufferPointer { ring.write($0, from: Int64(start)) }
    }
    let end: Int64 = 163_840
    let pieces = read(ring)
    #expect(pieces.first?.0 == end - 65_536)
    #expect(pieces.map(\.1.count).reduce(0, +) == 65_536)
    #expect(pieces.map(\.0) == [98_304, 131_072])
    // Each frame's sample is its place in its block of 4,096.
    for (first, samples) in pieces {
      #expect(samples.enumerated().allSatisfy { $0.element == Float((first + Int64($0.offset)) % 4_096) })
    }
  }

  /// Frames passed over (the run's frames a glitch skipped) read as the silence they were, not
  /// as what their slots held a ring ago; the frames on either side as written.
  @Test func framesPassedOverReadAsSilenceNotAsWhatTheirSlotsHeld() {
    let ring = PlayedRing()
    let loud = [Float](repeating: 1, count: 4_096)
    // A whole ring of sound, then a gap of 2,048 frames, then 256 more.
    for start in stride(from: 0, to: 131_072, by: 4_096) {
      loud.withUnsafeBufferPointer { ring.write($0, from: Int64(start)) }
    }
    _ = read(ring)
    [Float](repeating: 0.5, count: 256).withUnsafeBufferPointer { ring.write($0, from: 133_120) }
    let pieces = read(ring)
    let samples = pieces.flatMap(\.1)
    #expect(pieces.first?.0 == 131_072)
    #expect(samples.count == 2_304)
    #expect(samples.prefix(2_048).allSatisfy { $0 == 0 })
    #expect(samples.suffix(256).allSatisfy { $0 == 0.5 })
  }
}
