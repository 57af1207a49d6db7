import Foundation
import MetronomeTesting
import OpenCombineShim
import Testing

@Suite(.timeLimit(.minutes(1)))
struct BlockingRecorderTests {
  @Test func waitsForValuesSentFromAnotherThread() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.receive(on: DispatchQueue.global()).record(numberOfRecords: 2)
    subject.send(1)
    subject.send(2)
    recorder.waitForAllValues(timeout: 5)
    #expect(recorder.records == [.value(1), .value(2)])
  }

  @Test func reportsHowManyArrivedWhenItTimesOut() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record(numberOfRecords: 2)
    subject.send(1)
    withKnownIssue {
      recorder.waitForAllValues(timeout: 0.01)
    } matching: { issue in
      String(describing: issue).contains("Waiting for 2 values timed out. Received only 1 value.")
    }
  }

  @Test func completionCountsAsARecord() {
    let recorder = Just(7).record(numberOfRecords: 2)
    recorder.waitForAllValues()
    #expect(recorder.records == [.value(7), .completion(.finished)])
    #expect(recorder.values == [7])
  }
}
