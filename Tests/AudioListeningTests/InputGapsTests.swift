import AudioListening
import Testing

@Suite(.timeLimit(.minutes(1))) struct InputGapsTests {
  @Test func inputHeardOnWithoutLossHasNoGapWhereverItIsPlaced() {
    let gaps = InputGaps()
    #expect(gaps.heard(from: 0, frames: 1_024) == nil)
    #expect(gaps.heard(from: 1_024, frames: 1_024) == nil)
    // Placed anew without a loss (a clock drifting): no gap either way.
    #expect(gaps.heard(from: 2_100, frames: 1_024) == nil)
    #expect(gaps.heard(from: 3_000, frames: 1_024) == nil)
  }

  @Test func theFramesSinceTheLastHeardAreTheGapOnceFramesWereLost() {
    let gaps = InputGaps()
    _ = gaps.heard(from: 5_000, frames: 1_024)
    gaps.lostFrames()
    #expect(gaps.heard(from: 30_000, frames: 1_024) == 23_976)
    // Said once: the next period follows on.
    #expect(gaps.heard(from: 31_024, frames: 1_024) == nil)
    // The second loss too, placed where the last ended: a gap of none.
    gaps.lostFrames()
    #expect(gaps.heard(from: 32_048, frames: 512) == 0)
    // Placed before where the last ended (a clock placed anew earlier): none either.
    gaps.lostFrames()
    #expect(gaps.heard(from: 32_000, frames: 512) == 0)
  }

  /// Frames lost before anything was heard (as a device starts) leave no gap to say.
  @Test func framesLostBeforeTheFirstHeardAreNoGap() {
    let gaps = InputGaps()
    gaps.lostFrames()
    #expect(gaps.heard(from: 48_000, frames: 1_024) == nil)
    #expect(gaps.heard(from: 49_024, frames: 1_024) == nil)
  }
}
