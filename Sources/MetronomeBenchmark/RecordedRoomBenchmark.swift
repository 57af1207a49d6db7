import AudioListening
import Foundation
import MetronomeCore
import MetronomeTesting

/// `MetronomeBenchmark recorded-rooms FOLDER`: the room canceller in rooms no one here simulated.
///
/// Each `*.f32` in FOLDER is an impulse response at 44.1 kHz, 32-bit floats, as `scripts/bench-rooms`
/// writes them with pyroomacoustics; with no calibration: the Hydrogen drummer's take, scored
/// against its truth, and drum breaks drummers recorded (LMMS's) played in place of the drummer,
/// scored against what the same listener hears of each break with no click. For each room and
/// take: the attacks to find, those missed or more than a millisecond off, those found that are
/// not there (clicks taken for strokes), and the worst distance.
enum RecordedRoomBenchmark {
  static func run(folder: String) throws {
    let rate = try SampleRate(RoomTake.sampleRate)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".f32") }.sorted()
    print("\nrooms from pyroomacoustics, no calibration | attacks wrong taken  worst")
    var totals = (attacks: 0, wrong: 0, taken: 0)
    for file in files {
      let data = try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(file))
      let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
      let room = ImpulseResponse(samples: samples, rate: rate.hz)
      print(file.replacingOccurrences(of: ".f32", with: ""))
      for (index, level) in [-20.0, -6.0].enumerated() {
        let drummer = try RoomTake(room: room, clickLevel: level, seed: UInt64(index + 1))
        let heard = HeardTake(drummer, heard: listen(to: drummer.input, playing: drummer.output, rate: rate))
        let errors = heard.errors().map { Double($0) * 1_000 / Double(rate.hz) }
        line(level, "Hydrogen's kit", drummer.attacks.count, heard.wrong().count, heard.strays.count, errors)
        totals.attacks += drummer.attacks.count
        totals.wrong += heard.wrong().count
        totals.taken += heard.strays.count
        for name in ["break01", "break02", "break03"] {
          let take = try RoomTake(
            room: room, clickLevel: level, alongside: RecordedSound.load("beats/\(name).ogg").map { $0 * 0.8 },
            drummer: false, seed: 1)
          let truth = listen(to: take.alongside, playing: [Float](repeating: 0, count: take.output.count), rate: rate)
            .map { Int($0.0.frame) }
          let found = listen(to: take.input, playing: take.output, rate: rate).map { Int($0.0.frame) }
          var unmatched = found
          var errors: [Double] = []
          var wrong = 0
          for attack in truth {
            guard
              let nearest = unmatched.indices.min(by: { abs(unmatched[$0] - attack) < abs(unmatched[$1] - attack) }),
              abs(unmatched[nearest] - attack) <= rate.hz / 40
            else {
              wrong += 1
              continue
            }
            let error = abs(unmatched[nearest] - attack)
            if error > rate.hz / 1_000 { wrong += 1 }
            errors.append(Double(error) * 1_000 / Double(rate.hz))
            unmatched.remove(at: nearest)
          }
          line(level, name, truth.count, wrong, unmatched.count, errors)
          totals.attacks += truth.count
          totals.wrong += wrong
          totals.taken += unmatched.count
        }
      }
    }
    print("all \(files.count) rooms: \(totals.attacks) attacks, \(totals.wrong) wrong, \(totals.taken) taken")
  }

  /// The attacks the room canceller's listener finds in `input` with `output` played.
  private static func listen(to input: [Float], playing output: [Float], rate: SampleRate) -> [(Attack, Placement)] {
    AudioHitListener(canceller: EchoPathCanceller(roundTrip: 0), sampleRate: rate).attacks(in: input, playing: output)
  }

  private static func line(
    _ level: Double, _ take: String, _ attacks: Int, _ wrong: Int, _ taken: Int, _ errors: [Double]
  ) {
    let name = "  the click at \(Int(level)) dB, \(take)"
    print(
      name.padding(toLength: 43, withPad: " ", startingAt: 0)
        + String(format: "| %7d %5d %5d %5.2f ms", attacks, wrong, taken, errors.max() ?? 0))
  }
}
