import AudioListening
import Testing

@Suite(.timeLimit(.minutes(5))) struct PlacementTests {
  /// A hit is on the output's frame its attack was heard on, less the round trip and the offset
  /// asked for: an attack one round trip after a click, with no offset, is on the click.
  @Test(arguments: [(48_000, 1_024, 0, 46_976), (48_000, 1_024, 48, 46_928), (500, 0, -48, 548), (0, 256, 0, -256)])
  func aHitIsPlacedByTheRoundTripAndTheOffset(attack: Int64, roundTrip: Int64, offset: Int64, frame: Int64) {
    #expect(Placement(roundTrip: roundTrip, heard: true).frame(ofAttackAt: attack, offset: offset) == frame)
    #expect(Placement(roundTrip: roundTrip, heard: false).frame(ofAttackAt: attack, offset: offset) == frame)
  }
}
