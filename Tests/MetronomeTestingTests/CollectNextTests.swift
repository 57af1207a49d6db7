import MetronomeTesting
import OpenCombineShim
import Testing

@Suite(.timeLimit(.minutes(1)))
struct CollectNextTests {
  final class Model {
    @Published var count = 0
  }

  @Test func skipsTheCurrentValueAndCollectsTheNextOnes() throws {
    let model = Model()
    let next = model.$count.collectNext(2)
    let recorder = next.record(numberOfRecords: 2)
    model.count = 1
    model.count = 2
    model.count = 3
    recorder.waitForAllValues()
    #expect(recorder.values == [[1, 2]])
  }
}
