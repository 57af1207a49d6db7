import MetronomeCore
import Testing

/// `--group` as the core reads it: groups that must make the bar, or a compound meter's threes.
@Suite(.timeLimit(.minutes(1)))
struct AccentGroupingTests {
  @Test func groupsAreReadAndMakeTheirPattern() throws {
    let grouping = try AccentGrouping(parsing: "2+2+3")
    #expect(grouping == .groups([2, 2, 3]) && grouping.description == "2+2+3")
    #expect(try grouping.pattern(in: Meter(7, 8)) == (try AccentPattern(grouping: "2+2+3")))
    #expect(try AccentGrouping(parsing: "64").pattern(in: Meter(64, 4, cap: .widest))?.count == 64)
  }

  @Test func groupsThatDoNotMakeTheBarAreRefusedWithTheirSum() throws {
    #expect(throws: AccentPatternError.groupingDoesNotFit("3+3+2", beats: 8, try Meter(7, 8))) {
      try AccentGrouping(parsing: "3+3+2").pattern(in: Meter(7, 8))
    }
    for bad in ["2+x", "", "0", "2++3", "65", "+"] {
      #expect(throws: AccentPatternError.unreadableGrouping(bad)) { try AccentGrouping(parsing: bad) }
    }
  }

  /// `compound` is the threes of 6/8, 9/8 and 12/8; in another meter it makes no pattern.
  @Test func compoundIsTheThreesOfACompoundMeter() throws {
    let compound = try AccentGrouping(parsing: "compound")
    #expect(compound == .compound && compound.description == "compound")
    #expect(try compound.pattern(in: Meter(6, 8)) == AccentPattern.compound(for: try Meter(6, 8)))
    #expect(try compound.pattern(in: Meter(12, 8, cap: .widest))?.count == 12)
    #expect(try compound.pattern(in: Meter(4, 4)) == nil)
  }
}
