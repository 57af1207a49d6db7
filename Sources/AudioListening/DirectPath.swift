/// The direct path from the output to the input, as a short filter: 8 taps from 2 frames before
/// the direct sound, fitted by least squares to a sound's answer over its first millisecond
/// (before any reflection comes), so that a sound first heard while the player plays starts
/// from it; and where an answer's direct sound is.
///
/// Allocates nothing once made; touched by one thread.
final class DirectPath {
  private static let taps = 8
  private static let before = 2
  /// Frames of an answer the filter is fitted over: its first millisecond.
  private static let fitted = 48
  /// Lags of an answer its direct sound is looked for in: 6,656 frames past the round trip
  /// given (139 ms at 48 kHz), for devices that report less than they add.
  static let searched = 7_168
  /// Frames of an answer heard before its direct sound is looked for: those searched, and the
  /// room's tail after the latest (`ClickAnswers` reads how fast it fades over 3,584 frames).
  static let heard = searched + 3_584

  private let filter = FloatBuffer(count: DirectPath.taps)
  /// The normal equations while they are solved: the matrix, then the right side.
  private let equations = UnsafeMutableBufferPointer<Double>.allocate(
    capacity: DirectPath.taps * (DirectPath.taps + 1))

  /// No filter fitted yet (it passes nothing).
  init() { equations.initialize(repeating: 0) }

  deinit { equations.deallocate() }

  /// Where `answer` (its lags from 0) first reaches a tenth of its peak over `heard` frames, and
  /// four times what it holds in its first 256 frames (before the round trip given, where no
  /// echo can be); nil where nothing stands out.
  static func lag(in answer: (Int) -> Float) -> Int? {
    var peak: Float = 0
    for index in 0..<heard { peak = max(peak, answer(index).magnitude) }
    var before: Float = 0
    for index in 0..<256 { before += answer(index) * answer(index) }
    let floor = max(peak / 10, 4 * (before / 256).squareRoot())
    guard peak > floor else { return nil }
    return (0..<searched).first { answer($0).magnitude >= floor }
  }

  /// Fits the filter to `answer`, whose direct sound is at `lag`, as the answer to `sample`
  /// (a sound's samples from 0, silence beyond), within `frames` frames.
  ///
  /// With a little ridge, so that a sound with a gap in its spectrum still fits: a millionth of
  /// the normal equations' mean diagonal, and 1e-12 besides, so that a sound too quiet to square
  /// still solves.
  func fit(to answer: (Int) -> Float, of sample: (Int) -> Float, at lag: Int, frames: Int) {
    let taps = Self.taps
    let first = lag - Self.before
    let side = taps * taps
    equations.update(repeating: 0)
    for index in max(first, 0)..<min(first + Self.fitted, frames) {
      for row in 0..<taps {
        let x = Double(sample(index - first - row))
        equations[side + row] += x * Double(answer(index))
        for column in 0..<taps { equations[row * taps + column] += x * Double(sample(index - first - column)) }
      }
    }
    let trace = (0..<taps).reduce(0.0) { $0 + equations[$1 * taps + $1] }
    for row in 0..<taps { equations[row * taps + row] += 1e-6 * trace / Double(taps) + 1e-12 }
    Self.solve(equations, size: taps)
    for tap in 0..<taps { filter[tap] = Float(equations[side + tap]) }
  }

  /// Adds to `answer` what the direct path makes of `sample` (`length` frames of a sound), the
  /// direct sound at `lag`.
  func add(to answer: UnsafeMutableBufferPointer<Float>, at lag: Int, of sample: (Int) -> Float, length: Int) {
    let first = lag - Self.before
    for tap in 0..<Self.taps where first + tap >= 0 {
      for index in 0..<min(length, answer.count - first - tap) {
        answer[first + tap + index] += filter[tap] * sample(index)
      }
    }
  }

  /// Solves `size` linear equations in place: `equations` holds their matrix, symmetric and
  /// positive definite (normal equations with a ridge), then the right side, which becomes the
  /// solution.
  ///
  /// By Cholesky's factoring: the matrix's lower triangle becomes L, with L times its transpose
  /// the matrix, then L y = the right side and the transpose of L times x = y are solved in turn.
  static func solve(_ equations: UnsafeMutableBufferPointer<Double>, size: Int) {
    let side = size * size
    for column in 0..<size {
      var diagonal = equations[column * size + column]
      for index in 0..<column { diagonal -= equations[column * size + index] * equations[column * size + index] }
      let root = diagonal.squareRoot()
      equations[column * size + column] = root
      for row in (column + 1)..<size {
        var sum = equations[row * size + column]
        for index in 0..<column { sum -= equations[row * size + index] * equations[column * size + index] }
        equations[row * size + column] = sum / root
      }
    }
    for row in 0..<size {
      var sum = equations[side + row]
      for index in 0..<row { sum -= equations[row * size + index] * equations[side + index] }
      equations[side + row] = sum / equations[row * size + row]
    }
    for row in stride(from: size - 1, through: 0, by: -1) {
      var sum = equations[side + row]
      for index in (row + 1)..<size { sum -= equations[index * size + row] * equations[side + index] }
      equations[side + row] = sum / equations[row * size + row]
    }
  }
}
