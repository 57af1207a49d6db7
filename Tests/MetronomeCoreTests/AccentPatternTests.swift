import MetronomeCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct AccentPatternTests {
  @Test func readsKlicksCharactersAndOForWeak() throws {
    let pattern = try AccentPattern(parsing: "X..x.o")
    #expect(pattern.levels == [.strong, .silent, .silent, .normal, .silent, .weak])
    #expect(pattern.description == "X..x.o")
    #expect(pattern.fits(try Meter(6, 8)))
    #expect(!pattern.fits(.fourFour))
  }

  @Test func refusesWhatItCannotRead() {
    #expect(throws: AccentPatternError.empty) { try AccentPattern(parsing: "") }
    #expect(throws: AccentPatternError.unknownCharacter("y", in: "Xxyx")) { try AccentPattern(parsing: "Xxyx") }
    #expect(throws: AccentPatternError.tooLong(65)) { try AccentPattern(parsing: String(repeating: "x", count: 65)) }
    for grouping in ["", "2+", "+3", "2++3", "a", "2+0", "2+-1"] {
      #expect(throws: AccentPatternError.unreadableGrouping(grouping)) { try AccentPattern(grouping: grouping) }
    }
  }

  @Test func aGroupingAccentsEachGroupsFirstBeat() throws {
    #expect(try AccentPattern(grouping: "2+2+3").description == "Xoxoxoo")
    #expect(try AccentPattern(grouping: "3+2").description == "Xooxo")
    #expect(try AccentPattern(grouping: "1+1").description == "Xx")
  }

  @Test func compoundMetersAreCountedInThrees() throws {
    #expect(AccentPattern.compound(for: try Meter(6, 8))?.description == "Xooxoo")
    #expect(AccentPattern.compound(for: try Meter(9, 8, cap: NumeratorCap(atLeast: 9)))?.description == "Xooxooxoo")
    #expect(
      AccentPattern.compound(for: try Meter(12, 8, cap: NumeratorCap(atLeast: 12)))?.description == "Xooxooxooxoo")
    #expect(AccentPattern.compound(for: try Meter(3, 8)) == nil)
    #expect(AccentPattern.compound(for: .fourFour) == nil)
  }

  @Test func theStandardPatternAccentsBeatOne() {
    #expect(AccentPattern.standard(beats: 4).description == "Xxxx")
    #expect(AccentPattern.standard(beats: 1).description == "X")
  }

  @Test func aLevelCyclesStrongNormalWeakSilent() throws {
    var pattern = AccentPattern.standard(beats: 3)
    var seen: [String] = []
    for _ in 0..<4 {
      pattern = pattern.cyclingLevel(ofBeat: 2)
      seen.append(pattern.description)
    }
    #expect(seen == ["Xox", "X.x", "XXx", "Xxx"])
  }
}
