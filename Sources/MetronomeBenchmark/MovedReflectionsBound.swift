import Foundation
import MetronomeCore
import MetronomeTesting

/// `MetronomeBenchmark rooms` (last part): how well any canceller could learn a moved microphone's
/// new reflections while the drummer plays on, in the takes of
/// `PathChangeBenchmark.movedWhilePlaying`.
///
/// A bound, not a canceller: it is told what no canceller knows, where each reflection of the new
/// room comes and its shape (each run of the image method's taps over the echo's first 1,024
/// frames from 16 before the direct sound, 23 ms at 44.1 kHz), and the direct sound exactly. Only
/// each reflection's gain is left to learn, by least squares, from the clicks heard since the move
/// before the one predicted, drums and all. It prints the echo left over those frames against the
/// echo, from the fourth click after the move on, beside what the old room's answer moved to the
/// new direct sound leaves (as the room canceller follows a move while the drummer plays on) and
/// how loud the drums are there.
enum MovedReflectionsBound {
  /// The frames of each click's echo looked at, from `before` frames before its direct sound.
  private static let frames = 1_024
  private static let before = 16
  /// Taps of a room's response taken as part of a reflection: above this share of its peak.
  private static let heardShare: Float = 1e-4

  /// One reflection (or a few arriving on the same frames): its first frame in the window and taps.
  private struct Reflection {
    let first: Int
    let taps: [Float]
  }

  /// A way of predicting each click's echo after the move, over the frames looked at.
  private enum Prediction: CaseIterable {
    case fittedFromThree, fittedSinceTheMove, oldRoomMoved, exact

    var name: String {
      switch self {
      case .fittedFromThree: "gains fitted from the 3 clicks before"
      case .fittedSinceTheMove: "gains fitted from every click since"
      case .oldRoomMoved: "the old room's answer moved (followed)"
      case .exact: "the echo exact"
      }
    }
  }

  /// What one prediction left over every room: the echo left against the echo (dB) on each click
  /// from the fourth after the move, and the strokes wrong and clicks taken by a canceller that
  /// takes it out, trusting it or knowing what it leaves.
  private struct Tally {
    var left: [Double] = []
    /// Strokes wrong and clicks taken, trusting the prediction (first) or knowing what it leaves.
    var scores = [(wrong: Int, taken: Int)](repeating: (0, 0), count: 2)
  }

  static func run(rooms count: Int) throws {
    let rate = try SampleRate(RoomTake.sampleRate)
    var tallies = [Tally](repeating: Tally(), count: Prediction.allCases.count)
    var drums: [Double] = []
    var strokes = 0
    let scenario = PathChangeBenchmark.movedWhilePlaying
    try PathChangeBenchmark.forEachTake(of: scenario, rooms: count) { take, room, moved, level in
      let gain = Float(pow(10, level / 20))
      let start = moved.directFrames(at: rate.hz) - before
      let reflections = self.reflections(
        in: Array(moved.impulseResponse(rate: rate.hz, seconds: 0.35, directGain: gain)[start..<(start + frames)]))
      let oldStart = room.directFrames(at: rate.hz) - before
      let old = Reflection(
        first: 0,
        taps: Array(
          room.impulseResponse(rate: rate.hz, seconds: 0.35, directGain: gain)[oldStart..<(oldStart + frames)]))
      var echoes = [[Float]](repeating: take.echo, count: Prediction.allCases.count)
      let afterMove = take.clicks.indices.filter { $0 >= PathChangeBenchmark.changeBeat }
      for (position, click) in afterMove.enumerated() where position >= 3 {
        let frame = take.clicks[click] + start
        let truth = take.echo[frame..<(frame + frames)].map(Double.init)
        let sound = Array(take.output[take.clicks[click]..<(take.clicks[click] + frames)])
        drums.append(decibels(zip(take.input[frame..<(frame + frames)].map(Double.init), truth).map(-), of: truth))
        for (slot, prediction) in Prediction.allCases.enumerated() {
          let predicted: [Double] =
            switch prediction {
            case .fittedFromThree:
              predict(
                reflections,
                gains: fit(reflections, take: take, clicks: afterMove[(position - 3)..<position], start: start),
                sound: sound)
            case .fittedSinceTheMove:
              predict(
                reflections, gains: fit(reflections, take: take, clicks: afterMove[0..<position], start: start),
                sound: sound)
            case .oldRoomMoved: heard(sound, through: old)
            case .exact: truth
            }
          tallies[slot].left.append(decibels(zip(truth, predicted).map(-), of: truth))
          for index in 0..<frames { echoes[slot][frame + index] = Float(predicted[index]) }
        }
      }
      let from = scenario.firstScoredFrame
      strokes += take.attacks.filter { $0 >= from }.count
      for slot in tallies.indices {
        for (way, knows) in [false, true].enumerated() {
          let canceller = KnownEchoCanceller(
            echo: echoes[slot], truth: take.echo, knowsWhatIsLeft: knows,
            roundTrip: Int64(room.directFrames(at: rate.hz)),
            changed: (Int64(take.changedAt ?? 0), Int64(moved.directFrames(at: rate.hz))))
          let (heard, _) = PathChangeBenchmark.listen(to: take, rate: rate, canceller: canceller)
          tallies[slot].scores[way].wrong += heard.wrong(from: from).count
          tallies[slot].scores[way].taken += heard.strays(from: from).count
        }
      }
    }
    print(
      "\nthe moved microphone's new reflections told | echo left, first 23 ms | \(strokes) strokes: wrong taken"
        + ", trusted | known left")
    for (prediction, tally) in zip(Prediction.allCases, tallies) {
      let sorted = tally.left.sorted()
      print(
        prediction.name.padding(toLength: 40, withPad: " ", startingAt: 0)
          + String(
            format: "| median %+6.1f, worst %+6.1f dB | %5d %5d | %5d %5d", sorted[sorted.count / 2],
            sorted.last ?? 0, tally.scores[0].wrong, tally.scores[0].taken, tally.scores[1].wrong,
            tally.scores[1].taken))
    }
    let sortedDrums = drums.sorted()
    print(
      String(
        format: "the drums there: median %+.1f dB of the echo, worst %+.1f dB", sortedDrums[sortedDrums.count / 2],
        sortedDrums.last ?? 0))
  }

  /// The runs of taps in `response` above `heardShare` of its peak, the direct sound first.
  private static func reflections(in response: [Float]) -> [Reflection] {
    let floor = heardShare * (response.map(abs).max() ?? 0)
    var found: [Reflection] = []
    var first: Int?
    for index in 0...response.count {
      let heard = index < response.count && abs(response[index]) > floor
      if heard, first == nil { first = index }
      if !heard, let start = first {
        found.append(Reflection(first: start, taps: Array(response[start..<index])))
        first = nil
      }
    }
    return found
  }

  /// `sound` (its first `frames` samples) through one reflection, or a whole response from its
  /// first frame, over `frames` frames.
  private static func heard(_ sound: [Float], through reflection: Reflection) -> [Double] {
    (0..<frames).map { frame in
      reflection.taps.indices.reduce(0.0) { sum, tap in
        let lag = frame - reflection.first - tap
        return lag >= 0 ? sum + Double(reflection.taps[tap]) * Double(sound[lag]) : sum
      }
    }
  }

  /// The gains of every reflection but the direct sound (told), by least squares over `clicks`
  /// of `take`: what was heard from `start` frames after each, less its direct sound.
  private static func fit(_ reflections: [Reflection], take: RoomTake, clicks: ArraySlice<Int>, start: Int) -> [Double]
  {
    let size = reflections.count - 1
    var matrix = [Double](repeating: 0, count: size * size)
    var side = [Double](repeating: 0, count: size)
    for click in clicks {
      let sound = Array(take.output[take.clicks[click]..<(take.clicks[click] + frames)])
      let direct = heard(sound, through: reflections[0])
      let columns = reflections.dropFirst().map { heard(sound, through: $0) }
      let frame = take.clicks[click] + start
      for row in 0..<size {
        for index in 0..<frames {
          side[row] += columns[row][index] * (Double(take.input[frame + index]) - direct[index])
        }
        for column in row..<size {
          let product = zip(columns[row], columns[column]).reduce(0.0) { $0 + $1.0 * $1.1 }
          matrix[row * size + column] += product
          if column != row { matrix[column * size + row] += product }
        }
      }
    }
    return solve(matrix, side)
  }

  /// The direct sound and every reflection at `gains`, of `sound`.
  private static func predict(_ reflections: [Reflection], gains: [Double], sound: [Float]) -> [Double] {
    var predicted = heard(sound, through: reflections[0])
    for (reflection, gain) in zip(reflections.dropFirst(), gains) {
      for (index, value) in heard(sound, through: reflection).enumerated() { predicted[index] += gain * value }
    }
    return predicted
  }

  /// Solves the normal equations `matrix` x = `side` by conjugate gradients, with a ridge of a
  /// billionth of the mean diagonal so that reflections a click's narrow spectrum cannot tell
  /// apart still solve.
  private static func solve(_ matrix: [Double], _ side: [Double]) -> [Double] {
    let size = side.count
    let ridge = 1e-9 * (0..<size).reduce(0.0) { $0 + matrix[$1 * size + $1] } / Double(max(size, 1))
    func times(_ vector: [Double]) -> [Double] {
      (0..<size).map { row in (0..<size).reduce(ridge * vector[row]) { $0 + matrix[row * size + $1] * vector[$1] } }
    }
    func dot(_ a: [Double], _ b: [Double]) -> Double { zip(a, b).reduce(0.0) { $0 + $1.0 * $1.1 } }
    var solution = [Double](repeating: 0, count: size)
    var residual = side
    var direction = residual
    var norm = dot(residual, residual)
    for _ in 0..<(4 * size) where norm > 1e-30 {
      let product = times(direction)
      let step = norm / dot(direction, product)
      for index in 0..<size {
        solution[index] += step * direction[index]
        residual[index] -= step * product[index]
      }
      let next = dot(residual, residual)
      for index in 0..<size { direction[index] = residual[index] + next / norm * direction[index] }
      norm = next
    }
    return solution
  }

  /// The energy of `difference` against that of `reference`, in dB.
  private static func decibels(_ difference: [Double], of reference: [Double]) -> Double {
    let energy = reference.reduce(0.0) { $0 + $1 * $1 }
    return 10 * log10(max(difference.reduce(0.0) { $0 + $1 * $1 }, 1e-30) / max(energy, 1e-30))
  }
}
