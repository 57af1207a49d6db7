import PracticeListening
import Testing

@Suite(.timeLimit(.minutes(1))) struct HitFilterTests {
  @Test func noteOnsOfTheNotesListenedToAtTheMinimumVelocityAreHits() throws {
    let filter = try HitFilter(notes: HitFilter.notes(parsing: "36,38-40"), minimumVelocity: 20)
    #expect(filter.notes == [36, 38, 39, 40])
    #expect(filter.hit(status: 0x99, 36, 100, atFrame: 7) == Hit(frame: 7, note: 36, velocity: 100))
    #expect(filter.hit(status: 0x90, 40, 20, atFrame: 7) != nil)
    // Another note, too soft, a note-on at velocity 0 (a note-off), a note-off, a control change.
    #expect(filter.hit(status: 0x99, 37, 100, atFrame: 7) == nil)
    #expect(filter.hit(status: 0x99, 36, 19, atFrame: 7) == nil)
    #expect(filter.hit(status: 0x99, 36, 0, atFrame: 7) == nil)
    #expect(filter.hit(status: 0x89, 36, 100, atFrame: 7) == nil)
    #expect(filter.hit(status: 0xB0, 36, 100, atFrame: 7) == nil)
    #expect(HitFilter().hit(status: 0x90, 0, 1, atFrame: 0) == Hit(frame: 0, note: 0, velocity: 1))
  }

  @Test func aBadListOrVelocityIsOneLineSayingWhatToGive() throws {
    #expect(try HitFilter(notes: HitFilter.notes(parsing: "0,127"), minimumVelocity: 127).notes == [0, 127])
    #expect(try HitFilter(notes: HitFilter.notes(parsing: "0-2"), minimumVelocity: 1).notes == [0, 1, 2])
    #expect(try HitFilter(notes: HitFilter.notes(parsing: "36-36"), minimumVelocity: 1).notes == [36])
    #expect(throws: HitFilterError("--listen-velocity must be from 1 to 127")) {
      try HitFilter(notes: nil, minimumVelocity: 128)
    }
    for list in ["", "36,", "x", "40-36", "128", "-1", "36-", "35-36-37", "127-128", "-1-3"] {
      #expect(throws: HitFilterError.self) { try HitFilter(notes: HitFilter.notes(parsing: list), minimumVelocity: 1) }
    }
    #expect(throws: HitFilterError("--listen-velocity must be from 1 to 127")) {
      try HitFilter(notes: nil, minimumVelocity: 0)
    }
    #expect(
      throws: HitFilterError(
        "give MIDI notes from 0 to 127 and ranges, such as 36,38 or 35-38: 'x' is not one")
    ) {
      try HitFilter(notes: HitFilter.notes(parsing: "36,x"), minimumVelocity: 1)
    }
  }
}
