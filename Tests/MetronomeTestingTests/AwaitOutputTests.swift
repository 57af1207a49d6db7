import Foundation
import MetronomeTesting
import OpenCombineShim
import Testing

@Suite(.timeLimit(.minutes(1)))
struct AwaitOutputTests {
  struct Boom: Error, Equatable {}

  @Test func returnsTheLastValueOnceThePublisherFinishes() throws {
    let output = try awaitOutput([1, 2, 3].publisher.receive(on: DispatchQueue.global()))
    #expect(output == 3)
  }

  @Test func rethrowsTheFailure() {
    #expect(throws: Boom()) { try awaitOutput(Fail<Int, Boom>(error: Boom())) }
  }

  @Test func throwsWhenNothingArrivesInTime() {
    #expect(throws: AwaitOutputError.timedOut(seconds: 0.01)) {
      try awaitOutput(PassthroughSubject<Int, Never>(), timeout: 0.01)
    }
  }

  @Test func throwsWhenItFinishesEmpty() {
    #expect(throws: AwaitOutputError.finishedWithoutOutput) { try awaitOutput(Empty<Int, Never>()) }
  }
}
