/// How loud an answer's sample-to-sample changes were heard, fitted chunk by chunk, for several
/// sounds at once: read where the chunks agree.
///
/// A least-squares fit over the whole of a click is leaned by a stroke anywhere in it: a stroke
/// on an eighth leaned a volume's reading by 6 %, one 106 frames into a click left no reading at
/// all (the direct sound read otherwise), and through a cable the fourth click after a volume
/// turned in eighths was heard unscaled and a stroke 52 frames after it placed on it. So each
/// chunk of `chunkFrames` is fitted on its own, and the level is read from the heaviest run of
/// chunks whose ratios agree within `agreement`, by the answer's energy in them, where that run
/// holds `heaviest` of it: the chunks before a stroke, or between its loudest parts, agree to the
/// sample, while those it leans scatter each its own way. Where no run is that heavy (a room's
/// reflections read unlike the direct sound, or a stroke over all of a click), the level is the
/// fit over every chunk, as one least-squares fit.
///
/// Allocates nothing once made; touched by one thread.
final class ChunkedFit {
  /// The frames each chunk fits: under a millisecond, so that a stroke a few milliseconds into a
  /// click leaves the click's sharp start to chunks of its own.
  static let chunkFrames = 32
  /// How close the chunks' ratios must lie to be read together, as a share of the larger.
  static let agreement: Float = 0.02
  /// The share of the answer's energy the chunks read together must hold to be the reading.
  /// (Measured on a probe of 128 takes: a quarter let the cable's strokes lean readings, a half
  /// left rooms to the whole fit more often; a third had the fewest strokes wrong.)
  static let heaviest: Float = 1.0 / 3

  private let chunks: Int
  private let crossed: FloatBuffer
  private let answered: FloatBuffer
  /// The ratios and weights of the chunks read, and their order by ratio.
  private let ratios: FloatBuffer
  private let weights: FloatBuffer
  private let order: UnsafeMutableBufferPointer<Int>

  /// Fits over the first `frames` frames of each of `sounds` sounds' answers.
  init(frames: Int, sounds: Int) {
    chunks = (frames + Self.chunkFrames - 1) / Self.chunkFrames
    crossed = FloatBuffer(count: sounds * chunks)
    answered = FloatBuffer(count: sounds * chunks)
    ratios = FloatBuffer(count: chunks)
    weights = FloatBuffer(count: chunks)
    order = .allocate(capacity: chunks)
    order.initialize(repeating: 0)
  }

  deinit { order.deallocate() }

  /// Starts `sound`'s fits again, for a click of its own.
  func reset(_ sound: Int) {
    for chunk in 0..<chunks {
      crossed[sound * chunks + chunk] = 0
      answered[sound * chunks + chunk] = 0
    }
  }

  /// Adds, at `sound`'s answer's `lag`, how the answer changed there and how what was heard did.
  func add(_ sound: Int, lag: Int, answerChange: Float, heardChange: Float) {
    let slot = sound * chunks + lag / Self.chunkFrames
    crossed[slot] += answerChange * heardChange
    answered[slot] += answerChange * answerChange
  }

  /// How loud `sound`'s answer was heard over the chunks that hold `lags`: the fit over the
  /// heaviest run of chunks that agree, where it is heavy enough, else over all of them; nil
  /// where the answer holds no energy there.
  func level(of sound: Int, over lags: Range<Int>) -> Float? {
    let first = max(lags.lowerBound / Self.chunkFrames, 0)
    let end = min((lags.upperBound + Self.chunkFrames - 1) / Self.chunkFrames, chunks)
    var count = 0
    var total: Float = 0
    var crossedAll: Float = 0
    for chunk in first..<max(end, first) where answered[sound * chunks + chunk] > 0 {
      let weight = answered[sound * chunks + chunk]
      ratios[count] = crossed[sound * chunks + chunk] / weight
      weights[count] = weight
      order[count] = count
      total += weight
      crossedAll += crossed[sound * chunks + chunk]
      count += 1
    }
    guard count > 0 else { return nil }
    // In place by insertion, which allocates nothing: a hundred-odd chunks, once a click.
    for placed in 1..<count {
      let index = order[placed]
      var slot = placed
      while slot > 0, ratios[order[slot - 1]] > ratios[index] {
        order[slot] = order[slot - 1]
        slot -= 1
      }
      order[slot] = index
    }
    // The heaviest run of chunks whose ratios agree, by a window sliding over them in order.
    var best: (weight: Float, crossed: Float) = (0, 0)
    var low = 0
    var weight: Float = 0
    var crossedSum: Float = 0
    for high in 0..<count {
      let top = order[high]
      weight += weights[top]
      crossedSum += ratios[top] * weights[top]
      while ratios[top] - ratios[order[low]] > Self.agreement * max(abs(ratios[top]), abs(ratios[order[low]])) {
        weight -= weights[order[low]]
        crossedSum -= ratios[order[low]] * weights[order[low]]
        low += 1
      }
      if weight > best.weight { best = (weight, crossedSum) }
    }
    return best.weight >= Self.heaviest * total ? best.crossed / best.weight : crossedAll / total
  }
}
