import Foundation
import Testing

@testable import AudioListening

/// How loud an answer is read chunk by chunk: exactly where a stroke leans only part of it, as one
/// fit where the chunks do not agree.
@Suite(.timeLimit(.minutes(5))) struct ChunkedFitTests {
  /// A click's answer as the pulse sounds through a cable: a square wave near 1 kHz at 44.1 kHz,
  /// dying away over some 8 ms.
  private static func answer(_ lag: Int) -> Float {
    Float((sin(2 * Double.pi * Double(lag) / 44) >= 0 ? 1 : -1) * exp(-Double(lag) / 354)) * 0.3
  }

  /// A drum's stroke from `start` on: seeded noise four times the click's loudest.
  private static func stroke(_ lag: Int, from start: Int) -> Float {
    guard lag >= start else { return 0 }
    var state = UInt64(lag) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    state ^= state >> 33
    return (Float(state % 2_001) / 1_000 - 1) * 1.2
  }

  /// `gain` times the answer, and the stroke from `stroke` on, fitted for `sound` over the first
  /// 4,096 frames as `HeardTwice` fits a click.
  private static func fitted(gain: Float, stroke start: Int?, sound: Int = 0) -> ChunkedFit {
    let fit = ChunkedFit(frames: 4_096, sounds: 4)
    var previous = (answer: answer(0), heard: gain * answer(0) + (start.map { stroke(0, from: $0) } ?? 0))
    for lag in 1..<4_096 {
      let heard = gain * answer(lag) + (start.map { stroke(lag, from: $0) } ?? 0)
      fit.add(sound, lag: lag, answerChange: answer(lag) - previous.answer, heardChange: heard - previous.heard)
      previous = (answer(lag), heard)
    }
    return fit
  }

  /// One least-squares fit of the same over the whole click: what a stroke leans.
  private static func wholeFit(gain: Float, stroke start: Int) -> Float {
    var crossed: Float = 0
    var energy: Float = 0
    for lag in 1..<4_096 {
      let answerChange = answer(lag) - answer(lag - 1)
      let heardChange = gain * answerChange + stroke(lag, from: start) - stroke(lag - 1, from: start)
      crossed += answerChange * heardChange
      energy += answerChange * answerChange
    }
    return crossed / energy
  }

  @Test func aClickHeardAloneIsReadAtItsLevelForItsSoundAlone() throws {
    let fit = Self.fitted(gain: 1.9, stroke: nil, sound: 2)
    let level = try #require(fit.level(of: 2, over: 1..<4_096))
    #expect(abs(level - 1.9) < 1e-4)
    #expect(fit.level(of: 1, over: 1..<4_096) == nil)
  }

  /// A stroke 106 or 200 frames into the click, four times as loud, leans one fit over the whole
  /// click by more than 2 %; the chunks before it, and those it leans least, still agree on the
  /// level to a thousandth.
  @Test(arguments: [106, 200])
  func aStrokeIntoTheClickLeansNotItsReading(from start: Int) throws {
    #expect(abs(Self.wholeFit(gain: 2, stroke: start) / 2 - 1) > 0.02)
    let level = try #require(Self.fitted(gain: 2, stroke: start).level(of: 0, over: 1..<4_096))
    #expect(abs(level / 2 - 1) < 1e-3, "\(level)")
  }

  /// Where a stroke sounds over the whole click, no run of chunks agrees: the reading is the one
  /// fit over them all.
  @Test func aStrokeOverTheWholeClickIsReadAsOneFit() throws {
    let level = try #require(Self.fitted(gain: 2, stroke: 0).level(of: 0, over: 1..<4_096))
    let whole = Self.wholeFit(gain: 2, stroke: 0)
    #expect(abs(level / whole - 1) < 1e-3, "\(level) against \(whole)")
  }

  /// Chunks of equal weight, one frame each, at `ratios`: the reading.
  private static func reading(of ratios: [Float]) -> Float? {
    let fit = ChunkedFit(frames: 4_096, sounds: 1)
    for (chunk, ratio) in ratios.enumerated() {
      fit.add(0, lag: chunk * ChunkedFit.chunkFrames + 1, answerChange: 1, heardChange: ratio)
    }
    return fit.level(of: 0, over: 0..<4_096)
  }

  /// Chunks within 2 % of each other are read together, farther apart not; a run holding a third
  /// of the weight is the reading (the first of equal ones), less than a third is not, and then
  /// every chunk is fitted together.
  @Test(
    arguments: [
      ([1.0, 1.0199, 3.0], (1.0 + 1.0199) / 2),
      ([1.0, 1.0205, 3.0], 1.0),
      ([3.0, 1.0199, 1.0], (1.0 + 1.0199) / 2),
      ([1.0, 1.5, 2.0, 3.0], 1.875),
      ([1.0, 1.5, 1.51, 3.0], 1.505),
      ([-1.0, -1.01, 2.0], -1.005),
    ] as [([Float], Float)])
  func theHeaviestRunThatAgreesIsTheReading(ratios: [Float], expected: Float) throws {
    let level = try #require(Self.reading(of: ratios))
    #expect(abs(level - expected) < 1e-5, "\(level)")
  }

  /// Only the chunks that hold the lags asked about are read, each whole.
  @Test func onlyTheChunksHoldingTheLagsAreRead() throws {
    let fit = ChunkedFit(frames: 4_096, sounds: 1)
    let frames = ChunkedFit.chunkFrames
    // The third chunk agrees with the first two: were it read with them, their reading would move.
    for (chunk, ratio) in [Float(2), 2, 2.01, 1, 1.01, 7].enumerated() {
      fit.add(0, lag: chunk * frames + 1, answerChange: 1, heardChange: ratio)
    }
    #expect(fit.level(of: 0, over: 0..<(2 * frames)) == 2)
    #expect(fit.level(of: 0, over: (2 * frames)..<(2 * frames + 1)) == 2.01)
    #expect(fit.level(of: 0, over: (4 * frames - 1)..<(4 * frames + 1)).map { abs($0 - 1.005) < 1e-6 } == true)
    #expect(fit.level(of: 0, over: (5 * frames)..<4_096) == 7)
    #expect(fit.level(of: 0, over: (6 * frames)..<4_096) == nil)
  }

  /// Frames that do not fill the last chunk still have one of their own, apart from the next
  /// sound's.
  @Test func aShortLastChunkIsAChunkOfItsOwn() throws {
    let frames = ChunkedFit.chunkFrames + 1
    let fit = ChunkedFit(frames: frames, sounds: 2)
    fit.add(0, lag: frames - 1, answerChange: 1, heardChange: 5)
    fit.add(1, lag: 0, answerChange: 1, heardChange: 3)
    #expect(fit.level(of: 0, over: 0..<frames) == 5)
    #expect(fit.level(of: 1, over: 0..<frames) == 3)
  }

  /// Starting a sound again forgets what it heard, and only it.
  @Test func aResetForgetsOneSound() throws {
    let fit = ChunkedFit(frames: 4_096, sounds: 2)
    fit.add(0, lag: 1, answerChange: 1, heardChange: 3)
    fit.add(1, lag: 1, answerChange: 1, heardChange: 4)
    fit.reset(0)
    #expect(fit.level(of: 0, over: 0..<4_096) == nil)
    #expect(fit.level(of: 1, over: 0..<4_096) == 4)
    fit.add(0, lag: 40, answerChange: 2, heardChange: 2)
    #expect(fit.level(of: 0, over: 0..<4_096) == 1)
  }
}
