import Glibc
import MetronomeTesting
import Testing

@testable import AudioListening

/// The direct path from the output to the input: where an answer's direct sound is, and the short
/// filter fitted to its first millisecond that a sound first heard under the drums starts from.
@Suite(.timeLimit(.minutes(2))) struct DirectPathTests {
  /// The frames of the answers here: as many as the direct sound is looked for in.
  private static let frames = DirectPath.heard

  /// A click sound: 64 frames of seeded noise, silence beyond.
  private static let sound: [Float] = {
    var random = SeededGenerator(seed: 41)
    return (0..<64).map { _ in Float.random(in: -1...1, using: &random) }
  }()

  private static func sample(_ index: Int) -> Float { sound.indices.contains(index) ? sound[index] : 0 }

  /// An answer holding `sound` at each of `paths`' lags, scaled by its gain.
  private static func answer(_ paths: [(lag: Int, gain: Float)]) -> [Float] {
    var answer = [Float](repeating: 0, count: frames)
    for path in paths {
      for (index, value) in sound.enumerated() where path.lag + index < frames {
        answer[path.lag + index] += path.gain * value
      }
    }
    return answer
  }

  /// How far, at worst, what a path fitted to `answer` at `lag` (after one fitted to `before`, if
  /// given) makes of the sound is from what the answer held.
  private static func worstAfterFitting(_ answer: [Float], at lag: Int, after before: [Float]? = nil) -> Float {
    let direct = DirectPath()
    if let before { direct.fit(to: { before[$0] }, of: sample, at: lag, frames: frames) }
    direct.fit(to: { answer[$0] }, of: sample, at: lag, frames: frames)
    var made = [Float](repeating: 0, count: frames)
    made.withUnsafeMutableBufferPointer { direct.add(to: $0, at: lag, of: sample, length: sound.count) }
    return zip(made, answer).map { abs($0 - $1) }.max() ?? 0
  }

  /// The direct sound is where the answer first reaches a tenth of its peak; a reflection's
  /// louder peak later changes nothing. (Past the first 256 frames: what they hold is the floor.)
  @Test(arguments: [256, 300, DirectPath.searched - 41, DirectPath.searched - 1])
  func theDirectSoundIsWhereTheAnswerFirstReachesATenthOfItsPeak(lag: Int) {
    var answer = [Float](repeating: 0, count: Self.frames)
    answer[lag] = 0.05
    answer[lag + 1] = 0.02
    answer[lag + 40] = 0.4
    #expect(DirectPath.lag { answer[$0] } == lag)
    // Just under a tenth of the peak, the reflection is taken for the direct sound.
    answer[lag] = 0.039
    answer[lag + 1] = 0
    // Looked for in the first lags only.
    #expect(DirectPath.lag { answer[$0] } == (lag + 40 < DirectPath.searched ? lag + 40 : nil))
  }

  /// It is looked for in the answer's first 7,168 frames (6,656 past the round trip given, 139 ms
  /// at 48 kHz), by a peak over its first 10,752: a sound later than that, or only a peak past
  /// them, is no direct sound.
  @Test func theDirectSoundIsLookedForInTheFirstFramesOnly() {
    #expect(DirectPath.searched == 7_168 && DirectPath.heard == 10_752)
    var late = [Float](repeating: 0, count: Self.frames + 100)
    late[DirectPath.searched] = 0.5
    #expect(DirectPath.lag { late[$0] } == nil)
    var tailPeak = [Float](repeating: 0, count: Self.frames + 100)
    tailPeak[500] = 0.05
    tailPeak[Self.frames] = 1
    // The peak past the frames looked over is not seen: 0.05 is the peak, and is found.
    #expect(DirectPath.lag { tailPeak[$0] } == 500)
  }

  /// What the answer holds in its first 256 frames, before any echo can come, is its floor: a
  /// direct sound must reach four times its root mean square; nothing standing out is nil.
  @Test(arguments: [(3.5, 600), (4.5, 400)] as [(Float, Int)])
  func theFirstFramesNoiseSetsTheFloor(timesTheFloor: Float, found: Int) {
    var random = SeededGenerator(seed: 42)
    // Noise at a root mean square near 0.01 throughout; the direct sound at 600, and at 400 a
    // sound over a tenth of its peak, below or above four times the noise.
    var answer = (0..<Self.frames).map { _ in Float.random(in: -0.0173...0.0173, using: &random) }
    let noise = (answer[..<256].reduce(0) { $0 + $1 * $1 } / 256).squareRoot()
    answer[400] = timesTheFloor * noise
    answer[600] = 0.3
    #expect(DirectPath.lag { answer[$0] } == found)
  }

  /// Exactly a tenth of the peak is reached; the floor is read from the answer's very first frame
  /// on (0.255 there and 1 at frame 100 make a floor of 0.258, which frame 0 does not reach).
  @Test func aTenthOfThePeakAndTheFloorFromTheFirstFrame() {
    #expect(DirectPath.lag { $0 == 300 ? 0.1 : ($0 == 400 ? 1 : 0) } == 300)
    #expect(DirectPath.lag { $0 == 0 ? 0.255 : ($0 == 100 ? 1 : 0) } == 100)
  }

  /// An answer with nothing standing out has no direct sound; one on its very first lag, standing
  /// out, is there.
  @Test func nothingStandingOutIsNoDirectSound() {
    #expect(DirectPath.lag { _ in 0 } == nil)
    #expect(DirectPath.lag { _ in 0.1 } == nil)
    #expect(DirectPath.lag { $0 == 0 ? 0.5 : 0 } == 0)
  }

  /// Fitted to an answer whose direct path is a short filter (here, the sound twice, a frame
  /// apart), the direct path makes of the sound what the answer holds, at any lag, the first
  /// frames included.
  @Test(arguments: [0, 1, 2, 96, 1_000])
  func theFittedPathMakesOfTheSoundWhatTheAnswerHeld(lag: Int) {
    let worst = Self.worstAfterFitting(Self.answer([(lag, 0.5), (lag + 1, -0.2)]), at: lag)
    #expect(worst < 1e-3, "off by \(worst) at lag \(lag)")
  }

  /// Its 8 taps run from 2 frames before the direct sound to 5 after: a path within them is
  /// fitted whole, one a frame beyond either end not at all.
  @Test(arguments: [(-2, true), (5, true), (-3, false), (6, false)] as [(Int, Bool)])
  func theTapsRunFromTwoFramesBeforeTheDirectSoundToFiveAfter(offset: Int, fitted: Bool) {
    let worst = Self.worstAfterFitting(Self.answer([(200, 0.5), (200 + offset, 0.3)]), at: 200)
    #expect((worst < 1e-3) == fitted, "off by \(worst) with a path \(offset) frames from the direct sound")
  }

  /// The fit reads the answer's first millisecond from 2 frames before the direct sound, 48
  /// frames: a reflection from the 49th on is not fitted, and a path on the answer's very first
  /// frame is (a sound of one sample, heard a frame before its direct sound at lag 1).
  @Test func theFitReadsTheFirstMillisecondFromTheAnswersFirstFrame() {
    let reflected = Self.answer([(200, 0.5), (246, 0.4)])
    let direct = DirectPath()
    direct.fit(to: { reflected[$0] }, of: Self.sample, at: 200, frames: Self.frames)
    var made = [Float](repeating: 0, count: 300)
    made.withUnsafeMutableBufferPointer { direct.add(to: $0, at: 200, of: Self.sample, length: Self.sound.count) }
    let alone = Self.answer([(200, 0.5)])
    #expect(made.indices.allSatisfy { abs(made[$0] - alone[$0]) < 1e-5 })
    let single = { (index: Int) -> Float in index == 0 ? 0.8 : 0 }
    let early = { (lag: Int) -> Float in lag == 0 ? 0.24 : (lag == 1 ? 0.4 : 0) }
    direct.fit(to: early, of: single, at: 1, frames: Self.frames)
    var first = [Float](repeating: 0, count: 8)
    first.withUnsafeMutableBufferPointer { direct.add(to: $0, at: 1, of: single, length: 1) }
    #expect(abs(first[0] - 0.24) < 1e-5 && abs(first[1] - 0.4) < 1e-5, "\(first)")
  }

  /// The fit does not depend on how loud the click is: one 60 dB down is fitted as exactly.
  @Test(arguments: [Float(1), 0.001])
  func aQuietClickIsFittedAsExactly(level: Float) {
    let quiet = { (index: Int) in level * Self.sample(index) }
    var answer = [Float](repeating: 0, count: Self.frames)
    for index in 0..<64 { answer[300 + index] = 0.5 * quiet(index) + 0.2 * quiet(index - 3) }
    let direct = DirectPath()
    direct.fit(to: { answer[$0] }, of: quiet, at: 300, frames: Self.frames)
    var made = [Float](repeating: 0, count: 400)
    made.withUnsafeMutableBufferPointer { direct.add(to: $0, at: 300, of: quiet, length: 64) }
    let worst = (300..<364).map { abs(made[$0] - answer[$0]) }.max() ?? 0
    #expect(worst < 1e-5 * level, "off by \(worst / level) of the level")
  }

  /// A second fit forgets the first: it is of the answer given, alone.
  @Test func aSecondFitForgetsTheFirst() {
    let worst = Self.worstAfterFitting(Self.answer([(300, -0.3)]), at: 300, after: Self.answer([(300, 0.8)]))
    #expect(worst < 1e-3, "off by \(worst)")
  }

  /// A tone steady through the whole millisecond fitted, whose taps a least-squares fit alone
  /// cannot tell apart, still fits (the ridge): what the path makes of it is finite and within a
  /// tenth of the tone's level of what the answer held (without the ridge, 24 % and worse); a
  /// period of 16 frames, of 5, and of 2 (every sample the last one negated, its highest pitch).
  @Test(arguments: [16.0, 5, 2])
  func aToneSteadyThroughTheFittedMillisecondStillFits(period: Double) {
    let tone = (0..<Self.frames).map { Float(sin(2 * Double.pi * (Double($0) + 0.5) / period)) }
    let sample = { (index: Int) in tone.indices.contains(index) ? tone[index] : 0 }
    // The direct sound 1,000 frames into the tone's answer, the fitted millisecond all tone.
    var answer = [Float](repeating: 0, count: Self.frames)
    for index in 0..<(Self.frames - 1_000) { answer[1_000 + index] = 0.5 * tone[index + 1_000] }
    let direct = DirectPath()
    direct.fit(to: { answer[$0] }, of: { sample($0 + 1_000) }, at: 1_000, frames: Self.frames)
    var made = [Float](repeating: 0, count: 1_200)
    made.withUnsafeMutableBufferPointer { direct.add(to: $0, at: 1_000, of: { sample($0 + 1_000) }, length: 64) }
    #expect(made.allSatisfy { $0.isFinite && abs($0) < 1 })
    let worst = (1_010..<1_060).map { abs(made[$0] - answer[$0]) }.max() ?? 0
    #expect(worst < 0.05, "off by \(worst)")
  }

  /// Nothing fitted, it makes nothing; what it makes is added to what the answer held, up to the
  /// answer's end.
  @Test func itAddsToTheAnswerUpToItsEnd() {
    let direct = DirectPath()
    var made = [Float](repeating: 0.25, count: 100)
    made.withUnsafeMutableBufferPointer { direct.add(to: $0, at: 10, of: Self.sample, length: 64) }
    #expect(made.allSatisfy { $0 == 0.25 })
    let answer = Self.answer([(90, 1)])
    direct.fit(to: { answer[$0] }, of: Self.sample, at: 90, frames: Self.frames)
    made.withUnsafeMutableBufferPointer { direct.add(to: $0, at: 90, of: Self.sample, length: 64) }
    #expect(made[..<88].allSatisfy { $0 == 0.25 })
    #expect(abs(made[95] - (0.25 + Self.sound[5])) < 1e-3)
    #expect(abs(made[99] - (0.25 + Self.sound[9])) < 1e-3)
    // Given part of a longer buffer, it writes nothing past the part's end.
    var longer = [Float](repeating: 0.25, count: 200)
    longer.withUnsafeMutableBufferPointer {
      direct.add(to: UnsafeMutableBufferPointer(rebasing: $0[..<100]), at: 90, of: Self.sample, length: 64)
    }
    #expect(longer[100...].allSatisfy { $0 == 0.25 })
  }
}

extension DirectPathTests {
  /// The solution of `matrix` (rows) times x = `side`, by `DirectPath.solve`.
  private func solved(_ matrix: [[Double]], _ side: [Double]) -> [Double] {
    var equations = matrix.flatMap { $0 } + side
    equations.withUnsafeMutableBufferPointer { DirectPath.solve($0, size: side.count) }
    return Array(equations.suffix(side.count))
  }

  /// Normal equations, symmetric and positive definite, are solved exactly, whatever their size;
  /// those of a fit that cannot tell its unknowns apart, held apart only by a ridge a millionth of
  /// their size, are solved to numbers.
  @Test func normalEquationsAreSolved() {
    let three = solved([[4, 2, 0.4], [2, 5, 1], [0.4, 1, 3]], [4 + 4 + 1.2, 2 + 10 + 3, 0.4 + 2 + 9])
    #expect(zip(three, [1.0, 2, 3]).allSatisfy { abs($0 - $1) < 1e-12 }, "\(three)")
    #expect(abs(solved([[2]], [3])[0] - 1.5) < 1e-15)
    // A Gram matrix of eight seeded rows and columns, and the side its x = 1, -2, 3… makes.
    var random = SeededGenerator(seed: 7)
    let rows = (0..<12).map { _ in (0..<8).map { _ in Double.random(in: -1...1, using: &random) } }
    let gram = (0..<8).map { row in (0..<8).map { column in rows.reduce(0) { $0 + $1[row] * $1[column] } } }
    let expected = (0..<8).map { Double(($0 + 1) * ($0.isMultiple(of: 2) ? 1 : -1)) }
    let side = gram.map { row in zip(row, expected).reduce(0) { $0 + $1.0 * $1.1 } }
    let eight = solved(gram, side)
    #expect(zip(eight, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(eight)")
    let alike = solved([[1 + 1e-6, 1], [1, 1 + 1e-6]], [2, 2])
    #expect(alike.allSatisfy { abs($0 - 1) < 1e-5 }, "\(alike)")
  }

  /// The fit is the least-squares one with a ridge of a millionth of its normal equations' mean
  /// diagonal and 1e-12 besides, to the float: worked out here by Gaussian elimination, for a
  /// sound whose spectrum dips (noise averaged over 8 frames, which the ridge holds apart), heard
  /// with hiss, at full scale and 100 dB down (where 1e-12 is most of the ridge).
  @Test(arguments: [Float(1), 1e-5])
  func theFitIsTheRidgedLeastSquaresFit(level: Float) {
    var random = SeededGenerator(seed: 43)
    let noise = (0..<72).map { _ in Float.random(in: -1...1, using: &random) }
    let sound = (0..<64).map { index in level * noise[index..<(index + 8)].reduce(0, +) / 8 }
    let sample = { (index: Int) in sound.indices.contains(index) ? sound[index] : 0 }
    let lag = 300
    let answer = (0..<Self.frames).map { index in
      let hiss = level * 0.01 * Float.random(in: -1...1, using: &random)
      return 0.5 * sample(index - lag) + 0.3 * sample(index - lag - 3) + hiss
    }
    let direct = DirectPath()
    direct.fit(to: { answer[$0] }, of: sample, at: lag, frames: Self.frames)
    var taps = [Float](repeating: 0, count: lag + 8)
    taps.withUnsafeMutableBufferPointer { direct.add(to: $0, at: lag, of: { $0 == 0 ? 1 : 0 }, length: 1) }
    // The normal equations over the first 48 frames from 2 before the direct sound.
    let first = lag - 2
    var matrix = [[Double]](repeating: [Double](repeating: 0, count: 8), count: 8)
    var side = [Double](repeating: 0, count: 8)
    for index in first..<(first + 48) {
      for row in 0..<8 {
        side[row] += Double(sample(index - first - row)) * Double(answer[index])
        for column in 0..<8 {
          matrix[row][column] += Double(sample(index - first - row)) * Double(sample(index - first - column))
        }
      }
    }
    let ridge = 1e-6 * (0..<8).reduce(0) { $0 + matrix[$1][$1] } / 8 + 1e-12
    for row in 0..<8 { matrix[row][row] += ridge }
    let expected = Self.eliminated(matrix, side).map(Float.init)
    let fitted = Array(taps[first..<(first + 8)])
    #expect(zip(fitted, expected).allSatisfy { abs($0 - $1) <= 2 * $1.ulp }, "\(fitted) against \(expected)")
  }

  /// The solution of `matrix` times x = `side` by Gaussian elimination with partial pivoting.
  private static func eliminated(_ matrix: [[Double]], _ side: [Double]) -> [Double] {
    var rows = zip(matrix, side).map { $0 + [$1] }
    let size = side.count
    for column in 0..<size {
      let pivot = (column..<size).max { abs(rows[$0][column]) < abs(rows[$1][column]) } ?? column
      rows.swapAt(column, pivot)
      for row in (column + 1)..<size {
        let factor = rows[row][column] / rows[column][column]
        for index in column...size { rows[row][index] -= factor * rows[column][index] }
      }
    }
    var solution = [Double](repeating: 0, count: size)
    for row in stride(from: size - 1, through: 0, by: -1) {
      let known = ((row + 1)..<size).reduce(0) { $0 + rows[row][$1] * solution[$1] }
      solution[row] = (rows[row][size] - known) / rows[row][row]
    }
    return solution
  }
}
