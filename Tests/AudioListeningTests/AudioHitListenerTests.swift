import AudioListening
import Glibc
import MetronomeCore
import Testing

/// What the listener does around its canceller and detector: what it tells of the canceller's
/// changes, and when it counts the input cut at full scale.
@Suite(.timeLimit(.minutes(5))) struct AudioHitListenerTests {
  /// A canceller whose changes a test sets, passing the input on as heard.
  private final class ScriptedCanceller: OutputCanceller {
    var roundTrip: Int64 = 0
    var placement: Placement { Placement(roundTrip: roundTrip, heard: false) }
    var changes = CancellerChanges()

    func played(_ samples: UnsafeBufferPointer<Float>, from firstFrame: Int64) {}

    func cancel(
      _ input: UnsafeBufferPointer<Float>, from firstFrame: Int64,
      cancelled: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>, Int64) -> Void
    ) {
      let nothingLeft = [Float](repeating: 0, count: input.count)
      nothingLeft.withUnsafeBufferPointer { cancelled(input, $0, firstFrame) }
    }
  }

  /// What `listener` noticed of one cycle of `input` (silence unless given) from `frame`.
  private func notices(
    of listener: AudioHitListener, input: [Float] = [Float](repeating: 0, count: 256), from frame: Int64 = 0
  ) -> [InputNotice] {
    var told: [InputNotice] = []
    input.withUnsafeBufferPointer { input in
      listener.listen(
        input: input, output: UnsafeBufferPointer(start: nil, count: 0), from: frame, noticed: { told.append($0) }
      ) { _, _ in }
    }
    return told
  }

  /// Each change the canceller followed is told once, in decibels and milliseconds, in the order
  /// a player reads them: silence, level, move, echo learned again.
  @Test func eachChangeIsToldOnceInItsOwnUnits() throws {
    let canceller = ScriptedCanceller()
    let listener = AudioHitListener(canceller: canceller, sampleRate: .standard)
    #expect(notices(of: listener).isEmpty)
    canceller.changes.levels = 1
    canceller.changes.lastLevel = 2
    let louder = notices(of: listener)
    guard case .clickLevel(let decibels) = try #require(louder.first), louder.count == 1 else {
      Issue.record("told \(louder)")
      return
    }
    #expect(abs(decibels - 6.0206) < 0.001)
    #expect(notices(of: listener).isEmpty)
    canceller.changes.moves = 1
    canceller.changes.lastMove = -480
    #expect(notices(of: listener) == [.clickMoved(milliseconds: -10)])
    canceller.changes.silences = 1
    canceller.changes.learnedAgain = 1
    canceller.changes.levels = 2
    canceller.changes.lastLevel = 0.5
    canceller.changes.moves = 2
    canceller.changes.lastMove = 96
    let all = notices(of: listener)
    #expect(all.count == 4)
    #expect(all.first == .wentSilent && all.last == .echoLearnedAgain)
    #expect(
      all.dropFirst().first.map { if case .clickLevel(let db) = $0 { abs(db + 6.0206) < 0.001 } else { false } } == true
    )
    #expect(all.dropFirst(2).first == .clickMoved(milliseconds: 2))
    #expect(notices(of: listener).isEmpty)
  }

  /// How many cuts are counted of two at full scale, each held for two frames, `frames` apart
  /// (from the first cut's second frame to the second's).
  private func clipsCounted(apart frames: Int) -> Int {
    let listener = AudioHitListener(canceller: ScriptedCanceller(), sampleRate: .standard)
    var input = [Float](repeating: 0, count: 12_000)
    for start in [1_000, 1_000 + frames] { input.replaceSubrange((start - 1)...start, with: [1, 1]) }
    var counted = 0
    for cycle in stride(from: 0, to: input.count, by: 256) {
      counted +=
        notices(of: listener, input: Array(input[cycle..<min(cycle + 256, input.count)]), from: Int64(cycle))
        .filter { $0 == .clipped }.count
    }
    #expect(listener.clips == counted)
    return counted
  }

  /// Cuts more than a tenth of a second apart count twice; closer, once.
  @Test func cutsATenthOfASecondApartCountTwice() {
    #expect(clipsCounted(apart: 4_801) == 2)
    #expect(clipsCounted(apart: 4_800) == 1)
    #expect(clipsCounted(apart: 100) == 1)
  }

  /// A value held at 0.999 of full scale, either way, is a cut; one just under it is not.
  @Test func aValueHeldAtTheConvertersLastCodeIsACutAndOneJustUnderIsNot() {
    for (level, cuts) in [(Float(0.999), 1), (-0.999, 1), (Float(0.999).nextDown, 0)] {
      let listener = AudioHitListener(canceller: ScriptedCanceller(), sampleRate: .standard)
      _ = notices(of: listener, input: [0, level, level] + [Float](repeating: 0, count: 253))
      #expect(listener.clips == cuts, "\(level)")
    }
  }

  /// An input cut on its first two frames, in a whole recording, is counted.
  @Test func aCutOnTheFirstFramesOfARecordingCounts() {
    let listener = AudioHitListener(canceller: ScriptedCanceller(), sampleRate: .standard)
    _ = listener.attacks(in: [1, 1] + [Float](repeating: 0, count: 1_000))
    #expect(listener.clips == 1)
  }

  /// One frame at full scale, even the first heard, is a peak, not a cut.
  @Test func aPeakAtFullScaleOnTheFirstFrameIsNotACut() {
    let listener = AudioHitListener(canceller: ScriptedCanceller(), sampleRate: .standard)
    #expect(notices(of: listener, input: [1] + [Float](repeating: 0, count: 255)).isEmpty)
    #expect(listener.clips == 0)
  }

  /// A sample that is not a number is heard as silence, and one far past full scale at 16 times
  /// full scale (24 dB over): the filters stay sane and the attacks after are found.
  @Test func samplesNoConverterGivesAreHeardAsSilenceOrSixteenTimesFullScale() {
    let listener = AudioHitListener(canceller: EchoPathCanceller(roundTrip: 0), sampleRate: .standard)
    var input = [Float](repeating: 0, count: 48_000)
    input[4_000] = .nan
    input[8_000] = .infinity
    for index in 24_000..<24_480 { input[index] = index.isMultiple(of: 2) ? 1_000 : -1_000 }
    let found = listener.attacks(in: input, playing: [Float](repeating: 0, count: input.count)).map(\.0)
    #expect(found.count == 1)
    #expect(found.first.map { abs(Int($0.frame) - 24_000) <= 48 } == true)
    #expect(found.first.map { abs($0.level - 20 * log10(16)) < 0.1 } == true, "\(found)")
  }

  /// Through the room canceller, which holds the input back until the output over it is known: a
  /// cycle lost from a ringing input (a JACK server's xrun), told before the cycle after it is
  /// read, as the JACK client tells it, gives no attack where the sound jumps; untold, it gives one.
  @Test(arguments: [true, false])
  func aLostCycleToldIsNoAttackThroughTheCanceller(told: Bool) {
    let listener = AudioHitListener(canceller: EchoPathCanceller(roundTrip: 256), sampleRate: .standard)
    let silence = [Float](repeating: 0, count: 1_024)
    var attacks: [Int64] = []
    for cycle in 0..<20 where cycle != 6 {
      let first = Int64(cycle * 1_024)
      if cycle == 7, told { #expect(listener.lostInput(before: first) == 528) }
      let input = (0..<1_024).map { Float(0.3 * sin(2 * Double.pi * 100 * Double(first + Int64($0)) / 48_000)) }
      input.withUnsafeBufferPointer { input in
        silence.withUnsafeBufferPointer { output in
          listener.listen(input: input, output: output, from: first) { attack, _ in attacks.append(attack.frame) }
        }
      }
    }
    #expect(told ? attacks.isEmpty : attacks.contains { abs($0 - 7_168) <= 16 }, "\(attacks)")
  }

  /// Velocity follows the level as drum modules map it: 40 dB for a tenth.
  @Test func velocityIsATenthFortyDecibelsDown() {
    #expect(Attack(frame: 0, level: -20).velocity == 40)
    #expect(Attack(frame: 0, level: 6).velocity == 127)
  }
}
