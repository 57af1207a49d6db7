import AudioListening
import MetronomeCore
import MetronomeTesting
import Testing

@Suite(.timeLimit(.minutes(5))) struct DrumTakeTests {
  /// Twenty bars of a kit (`DrumTake`) at 100 BPM after a bar of count-in, heard through a loop
  /// that brings the clicks back 1024 frames late at half their level: every stroke is found
  /// within a millisecond of where its sound starts, no click is taken for one, and each is
  /// placed by the click's own round trip, heard.
  @Test(arguments: [1, 2, 3, 26] as [UInt64])
  func everyStrokeOfAKitIsFoundWithinAMillisecondAndNoClickIs(seed: UInt64) throws {
    let rate = try SampleRate(DrumTake.sampleRate)
    let spacing = 26_460
    let roundTrip = 1_024
    let clicks = 24
    let take = try DrumTake(clicks: clicks, spacing: spacing, spread: 882, skipped: 4, seed: seed)
    let output = try DrumTake.clickTrack(
      count: clicks, spacing: spacing, lead: spacing / 2, length: (clicks + 1) * spacing)
    var heard = [Float](repeating: 0, count: output.count)
    for index in roundTrip..<heard.count { heard[index] = 0.5 * output[index - roundTrip] }
    let (input, attacks) = take.mixed(into: heard) { spacing / 2 + $0 * spacing + roundTrip }

    let listener = AudioHitListener(canceller: EchoPathCanceller(roundTrip: Int64(roundTrip)), sampleRate: rate)
    let placed = listener.attacks(in: input, playing: output)
    let found = placed.map(\.0.frame)
    #expect(found.count == attacks.count, "found \(found.count) for \(attacks.count) strokes")
    let errors = zip(found, attacks).map { Int($0) - $1 }
    #expect(errors.allSatisfy { abs($0) <= rate.hz / 1_000 }, "\(errors)")
    #expect(placed.allSatisfy { $0.1 == Placement(roundTrip: Int64(roundTrip), heard: true) })
  }
}
