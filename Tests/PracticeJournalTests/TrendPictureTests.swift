import MetronomeTesting
import PracticeJournal
import PracticeListening
import Testing

/// A tag's trend as a picture, read back as geometry: each chart shows each day (and each take)
/// where its figures put it, on axes whose labels say so.
@Suite(.timeLimit(.minutes(1)))
struct TrendPictureTests {
  /// Three days of one tag: 10 min at 100 BPM, 9 of 10 on time (kept at 100); two takes of 5 min,
  /// at 110 all on time and at 120 half (kept at 110, 75 % on the day); 20 min at 130 without
  /// listening.
  private let drawn: [SVGElement]
  private let takes: [KeptTake]

  init() throws {
    let folder = try JournalFolder()
    let journal = try Journal.openForKeeping(folder.file("journal.sqlite3"))
    try journal.keep(TakeSamples.take(day: 3, minutes: 10, tempo: 100, offsets: Array(repeating: -2, count: 9) + [40]))
    try journal.keep(TakeSamples.take(day: 4, minutes: 5, tempo: 110, offsets: Array(repeating: 4, count: 10)))
    try journal.keep(
      TakeSamples.take(day: 4, hour: 10, minutes: 5, tempo: 120, offsets: [0, 30, 0, 30, 0, 30, 0, 30, 0, 30]))
    try journal.keep(TakeSamples.take(day: 6, minutes: 20, tempo: 130))
    takes = try journal.takes()
    drawn = SVGElement.elements(of: JournalReport.text(of: takes, as: .svg))
  }

  /// The chart whose frame's top edge is at `top`: its elements from its title to the next one's.
  private func chart(at top: Double) -> [SVGElement] {
    let titles = drawn.indices.filter { drawn[$0].name == "text" && drawn[$0].number("font-size") == 14 }
    guard let index = titles.firstIndex(where: { drawn[$0].number("y") == top - 12 }) else { return [] }
    let end = index + 1 < titles.count ? titles[index + 1] : drawn.count
    return Array(drawn[titles[index]..<end])
  }

  /// The value axis of `chart`: each label's value at its height.
  private func axis(_ chart: [SVGElement]) -> [(value: Double, y: Double)] {
    chart.filter { $0.name == "text" && $0.attributes["text-anchor"] == "end" && $0.number("x") == 62 }
      .map { (Double($0.text) ?? .nan, $0.number("y") - 4) }
  }

  /// The height `value` is drawn at on `axis`, read off its two outer labels.
  private func height(of value: Double, on axis: [(value: Double, y: Double)]) -> Double {
    guard let first = axis.first, let last = axis.last, first.value != last.value else { return .nan }
    return first.y + (value - first.value) / (last.value - first.value) * (last.y - first.y)
  }

  /// The days' places across: centred in equal slots of the frame, 70 to 930.
  private let days = [70 + 860 / 6.0, 500, 930 - 860 / 6.0]

  @Test func theChartsAreStackedWithTheirTitlesAndEveryDayLabelled() {
    let titles = drawn.filter { $0.name == "text" && $0.number("font-size") == 14 }
    #expect(titles.map { $0.number("y") } == [28, 228, 428, 628, 828])
    #expect(titles.first?.text == "Minutes played a day")
    let frames = drawn.filter { $0.name == "rect" && $0.attributes["stroke"] == "#a0aec0" }
    #expect(frames.map { $0.number("y") } == [40, 240, 440, 640, 840])
    #expect(frames.map { $0.number("height") } == [140, 140, 140, 140, 220])
    #expect(frames.allSatisfy { $0.number("x") == 70 && $0.number("width") == 860 })
    #expect(drawn.first?.number("height") == 1130 && drawn.first?.number("width") == 960)
    #expect(drawn.first?.attributes["viewBox"] == "0 0 960 1130")
    // Every label is small, each title larger.
    let labels = drawn.filter { $0.name == "text" && $0.number("font-size") != 14 }
    #expect(labels.allSatisfy { $0.number("font-size") == 11 })
    for top in [40.0, 240, 440, 640] {
      let labels = chart(at: top).filter { $0.attributes["text-anchor"] == "middle" }
      #expect(labels.map(\.text) == ["11-03", "11-04", "11-06"], "\(top)")
      #expect(labels.map { $0.number("y") } == [top + 156, top + 156, top + 156])
      #expect(zip(labels.map { $0.number("x") }, days).allSatisfy { abs($0 - $1) < 0.06 }, "\(top)")
    }
  }

  /// A bar a day, as tall as its minutes against the round top the label gives, from the bottom.
  @Test func minutesAreBarsFromTheBottom() {
    let minutes = chart(at: 40)
    let top = minutes.first { $0.name == "text" && $0.number("x") == 62 }
    #expect(top?.text == "20" && top?.number("y") == 50)
    let bars = minutes.filter { $0.name == "rect" && $0.attributes["fill"] == "#4a5568" }
    #expect(bars.map { $0.number("height") } == [68, 68, 136])
    #expect(bars.allSatisfy { $0.number("y") + $0.number("height") == 180 })
    #expect(zip(bars, days).allSatisfy { abs($0.number("x") + $0.number("width") / 2 - $1) < 0.11 })
    #expect(bars.allSatisfy { abs($0.number("width") - 860 / 3 * 0.7) < 0.06 })
  }

  /// The share within tolerance a day, on a line through its points, against the line at 90 %;
  /// a day without hits has none.
  @Test func theShareIsALineThroughTheDaysWithHits() throws {
    let share = chart(at: 240)
    let axis = axis(share)
    #expect(axis.map(\.value) == [0, 50, 100] && axis.map(\.y) == [380, 310, 240])
    let points = share.filter { $0.name == "circle" }
    #expect(points.allSatisfy { $0.number("r") == 3.5 })
    #expect(points.map { $0.number("cy") } == [height(of: 90, on: axis), height(of: 75, on: axis)])
    #expect(points.map { $0.number("cx") } == Array(days.prefix(2)).map { (($0 * 10).rounded()) / 10 })
    let line = try #require(share.first { $0.name == "polyline" })
    #expect(line.attributes["points"] == "213.3,254 500,275")
    let mark = try #require(share.first { $0.name == "line" })
    #expect(mark.number("y1") == height(of: 90, on: axis) && mark.attributes["stroke-dasharray"] == "6 4")
  }

  /// The mean a day as a dot, with its spread either way as a line through it.
  @Test func theTimingIsTheMeanWithItsSpread() throws {
    let timing = chart(at: 440)
    let axis = axis(timing)
    #expect(axis.map(\.value) == [-50, 0, 50] && axis.map(\.y) == [580, 510, 440])
    let zero = timing.first { $0.name == "line" && $0.attributes["stroke"] == "#444" }
    #expect(zero?.number("y1") == 510 && zero?.number("x1") == 70 && zero?.number("x2") == 930)
    let days = JournalTrend.of(takes)[0].days.compactMap(\.hits)
    let dots = timing.filter { $0.name == "circle" }
    #expect(dots.count == 2 && dots.allSatisfy { $0.number("r") == 4 })
    for (dot, hits) in zip(dots, days) {
      #expect(abs(dot.number("cy") - height(of: hits.mean, on: axis)) < 0.06)
    }
    let spreads = timing.filter { $0.name == "line" && $0.attributes["stroke"] == "#c05621" }
    #expect(spreads.count == 2 && spreads.allSatisfy { $0.number("stroke-width") == 2 })
    for (spread, hits) in zip(spreads, days) {
      #expect(abs(spread.number("y1") - height(of: hits.mean - hits.deviation, on: axis)) < 0.06)
      #expect(abs(spread.number("y2") - height(of: hits.mean + hits.deviation, on: axis)) < 0.06)
    }
  }

  /// The fastest tempo played a day as a ring, the fastest kept as a dot.
  @Test func theTempoIsTheFastestPlayedAndKept() {
    let tempo = chart(at: 640)
    let axis = axis(tempo)
    #expect(axis.map(\.value) == [90, 115, 140] && axis.map(\.y) == [780, 710, 640])
    let rings = tempo.filter { $0.name == "circle" && $0.attributes["fill"] == "white" }
    #expect(rings.allSatisfy { $0.number("r") == 5 })
    #expect(rings.map { $0.number("cy") } == [100, 120, 130].map { height(of: $0, on: axis) })
    let dots = tempo.filter { $0.name == "circle" && $0.attributes["fill"] == "#2f855a" }
    #expect(dots.map { $0.number("cy") } == [100, 110].map { height(of: $0, on: axis) })
    #expect(dots.map { $0.number("cx") } == [213.3, 500] && dots.allSatisfy { $0.number("r") == 3.5 })
  }

  /// Each take that listened as a point at its tempo across and its share up, the oldest lightest.
  @Test func eachTakeIsAPointAtItsTempoAndShare() {
    let takes = chart(at: 840)
    let up = axis(takes)
    #expect(up.map(\.value) == [0, 50, 100] && up.map(\.y) == [1060, 950, 840])
    let across = takes.filter { $0.name == "text" && $0.attributes["text-anchor"] == "middle" }
      .map { (value: Double($0.text) ?? .nan, x: $0.number("x")) }
    #expect(across.map(\.value) == [95, 110, 125] && across.map(\.x) == [70, 500, 930])
    #expect(takes.filter { $0.attributes["text-anchor"] == "middle" }.allSatisfy { $0.number("y") == 1076 })
    let mark = takes.first { $0.name == "line" }
    #expect(mark?.number("y1") == 862 && mark?.attributes["stroke-dasharray"] == "6 4")
    let points = takes.filter { $0.name == "circle" }
    #expect(points.map { $0.number("cx") } == [213.3, 500, 786.7])
    #expect(points.map { $0.number("cy") } == [90, 100, 50].map { height(of: $0, on: up) })
    #expect(points.map { $0.attributes["fill"] } == ["rgb(180,180,180)", "rgb(90,90,90)", "rgb(0,0,0)"])
  }

  /// Many days are labelled every so many, so that ten at most are named, and the last always;
  /// one take alone is drawn darkest.
  @Test func manyDaysAreLabelledEverySoManyAndOneTakeIsDarkest() throws {
    let folder = try JournalFolder()
    let journal = try Journal.openForKeeping(folder.file("journal.sqlite3"))
    for day in 1...22 { try journal.keep(TakeSamples.take(day: day, tag: day == 1 ? "once" : "daily", offsets: [1])) }
    let takes = try journal.takes()
    let daily = SVGElement.elements(of: JournalReport.text(of: takes.filter { $0.take.tag == "daily" }, as: .svg))
    let labels = daily.filter { $0.name == "text" && $0.attributes["text-anchor"] == "middle" && $0.number("y") == 196 }
    // 21 days, every third named: the 1st, 4th, … 19th, and the last.
    #expect(labels.map(\.text) == ["11-02", "11-05", "11-08", "11-11", "11-14", "11-17", "11-20", "11-22"])
    let once = SVGElement.elements(of: JournalReport.text(of: takes.filter { $0.take.tag == "once" }, as: .svg))
    #expect(once.last { $0.name == "circle" }?.attributes["fill"] == "rgb(0,0,0)")
  }

  /// The takes of the journals the reference pictures draw: `trend`, the three days above;
  /// `brief`, one take of half a minute at 2 BPM with every hit on its click (each chart's least
  /// range: half a minute, a millisecond either way, tempos from 0); `uneven`, takes at 104 and
  /// 126 BPM, whose round ends lie half a step or less beyond them; `unheard`, takes that did
  /// not listen.
  private func takes(of name: String) throws -> [KeptTake] {
    guard name != "trend" else { return takes }
    let folder = try JournalFolder()
    let journal = try Journal.openForKeeping(folder.file("journal.sqlite3"))
    switch name {
    case "brief": try journal.keep(TakeSamples.take(minutes: 0.5, tempo: 2, offsets: [0, 0, 0, 0]))
    case "uneven":
      try journal.keep(TakeSamples.take(day: 3, tempo: 104, offsets: [-3, 5, 2, 25]))
      try journal.keep(TakeSamples.take(day: 5, tempo: 126, offsets: [8, -1, 4, 3]))
    default:
      try journal.keep(TakeSamples.take(day: 3, tempo: 90))
      try journal.keep(TakeSamples.take(day: 5, minutes: 12, tempo: 96))
    }
    return try journal.takes()
  }

  /// The pictures as they were looked at in a browser (`Reference/NAME.svg`): any change to how
  /// they are drawn, a line's width, a dot's size, an axis's ends, is a change to review, and to
  /// record by copying the new picture, which a failure writes beside the reference, over it.
  @Test(arguments: ["trend", "brief", "uneven", "unheard"])
  func thePictureIsTheOneLookedAt(name: String) throws {
    try ReferencePicture.expect(JournalReport.text(of: try takes(of: name), as: .svg), isReference: name)
  }

  /// A take whose hits came at two tempos as often is drawn at the faster; the minutes' top is
  /// the round value above the most minutes of a day.
  @Test func aTakeIsDrawnAtTheTempoMostOfItsHitsWereAt() throws {
    let folder = try JournalFolder()
    let journal = try Journal.openForKeeping(folder.file("journal.sqlite3"))
    var take = TakeSamples.take(minutes: 3, tempo: 100, offsets: [1, 1, 1, 1])
    take.hits[2].tempo = 120
    take.hits[3].tempo = 120
    try journal.keep(take)
    try journal.keep(TakeSamples.take(hour: 10, minutes: 3, tempo: 90, offsets: [1]))
    let drawn = SVGElement.elements(of: JournalReport.text(of: try journal.takes(), as: .svg))
    let top = drawn.firstIndex { $0.name == "text" && $0.text.hasPrefix("Each take:") } ?? drawn.endIndex
    let across = drawn[top...].filter { $0.name == "text" && $0.attributes["text-anchor"] == "middle" }
    #expect(across.map(\.text) == ["80", "105", "130"])
    let points = drawn[top...].filter { $0.name == "circle" }
    // 120 (the faster of 100 and 120, two hits each) and 90, on 80 to 130 across 70 to 930.
    #expect(points.map { $0.number("cx") } == [758, 242])
    #expect(drawn.first { $0.name == "text" && $0.number("y") == 50 }?.text == "10")
  }
}
