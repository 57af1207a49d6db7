import Foundation
import MetronomeCore
import MetronomeTesting
import PracticeListening
import Testing

/// The `.svg` report read back as geometry: what each plot shows is where the hits put it.
@Suite(.timeLimit(.minutes(1)))
struct ReportPictureTests {
  private func picture(_ hits: [ScoredHit], tolerance: Double = 20) -> [SVGElement] {
    SVGElement.elements(of: ListeningReport.text(of: hits, tolerance: tolerance, as: .svg))
  }

  /// The value axis of the plot whose top edge is at `top`: each label's value at its height.
  private func valueAxis(_ picture: [SVGElement], between low: Double, _ high: Double) -> [(value: Double, y: Double)] {
    picture.filter { $0.name == "text" && $0.attributes["text-anchor"] == "end" && $0.number("x") == 62 }
      .map { (Double($0.text) ?? .nan, $0.number("y") - 4) }.filter { (low...high).contains($0.y) }
  }

  /// The height an offset is drawn at, read off a value axis by its two outer labels.
  private func height(of offset: Double, on axis: [(value: Double, y: Double)]) -> Double {
    guard let first = axis.first, let last = axis.last, first.value != last.value else { return .nan }
    return first.y + (offset - first.value) / (last.value - first.value) * (last.y - first.y)
  }

  /// Each hit is a point at its time across and its offset up (late above, early below), in the
  /// colour of its judgement (on time at exactly the tolerance); the first at the left edge, the
  /// last at the right.
  @Test func eachHitIsAPointAtItsTimeAndOffset() throws {
    let offsets: [Int64] = [0, -1_440, 480, 1_440, -480, 960, -960, 2_400]
    let hits = scored(offsets)
    let drawn = picture(hits)
    let points = drawn.filter { $0.name == "circle" }
    try #require(points.count == hits.count)
    let axis = valueAxis(drawn, between: 90, 330)
    #expect(axis.count >= 3 && axis.contains { $0.value == 0 })
    for (point, hit) in zip(points, hits) {
      #expect(
        abs(point.number("cy") - height(of: hit.offsetMilliseconds, on: axis)) < 0.11, "\(hit.offsetMilliseconds)")
      let colour = hit.offsetMilliseconds < -20 ? "#2b6cb0" : hit.offsetMilliseconds > 20 ? "#c05621" : "#2f855a"
      #expect(point.attributes["fill"] == colour, "\(hit.offsetMilliseconds) ms")
    }
    #expect(points.first?.number("cx") == 70 && points.last?.number("cx") == 930)
    let across = points.map { $0.number("cx") }
    #expect(zip(across, across.dropFirst()).allSatisfy { abs(($1 - $0) - (930 - 70) / 7) < 0.11 })
  }

  /// The fitted line runs through the mean time and mean offset with the slope the summary gives,
  /// and says which way the player drifts.
  @Test func theFittedLineHasTheSlopeOfTheDrift() throws {
    // 1 ms later each half second, from -4 ms: dragging 120 ms a minute.
    let hits = scored((0..<9).map { Int64($0 - 4) * 48 })
    let drawn = picture(hits)
    let fitted = try #require(drawn.first { $0.name == "line" && $0.attributes["stroke"] == "#c53030" })
    let axis = valueAxis(drawn, between: 90, 330)
    #expect(abs(fitted.number("y1") - height(of: -4, on: axis)) < 0.11)
    #expect(abs(fitted.number("y2") - height(of: 4, on: axis)) < 0.11)
    #expect(fitted.number("x1") == 70 && fitted.number("x2") == 930)
    #expect(drawn.contains { $0.text == "fitted line: dragging 120.0 ms a minute" })
  }

  /// Every hit is counted once in the histogram, in the bar over its offset, the bars' heights in
  /// proportion to their counts, the tallest labelled with its count; the mean and the median
  /// are marked where they are.
  @Test func theHistogramCountsEveryHitOnceWhereItFell() throws {
    let offsets: [Int64] = [0, 0, 0, 48, 96, -96, -960, 1_920, 1_920]
    let drawn = picture(scored(offsets))
    let bars = drawn.filter {
      $0.name == "rect" && $0.number("y") >= 400 && $0.number("y") < 600 && $0.number("height") < 200
    }
    .filter { $0.attributes["fill"] != "#e6f4ea" }
    let tallestLabel = try #require(drawn.first { $0.name == "text" && $0.number("y") == 410 })
    let tallest = try #require(Double(tallestLabel.text))
    #expect(tallest == 5)
    let unit = (bars.map { $0.number("height") }.max() ?? 0) / tallest
    let counts = bars.map { ($0.number("height") / unit).rounded() }
    #expect(counts.reduce(0, +) == Double(offsets.count))
    #expect(bars.allSatisfy { abs($0.number("height") / unit - ($0.number("height") / unit).rounded()) < 0.01 })
    #expect(bars.allSatisfy { abs($0.number("y") + $0.number("height") - 600) < 0.11 })
    // Each hit's offset lies over the bar counted for it: the ticks under the plot place them.
    let ticks = drawn.filter { $0.name == "text" && $0.number("y") == 616 }.compactMap { tick in
      Double(tick.text).map { (value: $0, x: tick.number("x")) }
    }
    let first = try #require(ticks.first)
    let last = try #require(ticks.last)
    let x = { (offset: Double) in first.x + (offset - first.value) / (last.value - first.value) * (last.x - first.x) }
    for offset in Set(offsets.map { Double($0) / 48 }) {
      let count = offsets.filter { Double($0) / 48 == offset }.count
      let bar = bars.first { $0.number("x") - 1 <= x(offset) && x(offset) < $0.number("x") + $0.number("width") + 1 }
      #expect(bar.map { ($0.number("height") / unit).rounded() } ?? 0 >= Double(count), "\(offset) ms")
    }
    let statistics = try #require(HitStatistics(scored(offsets), tolerance: 20))
    for (name, value) in [("mean", statistics.mean), ("median", statistics.median)] {
      let label = try #require(drawn.first { $0.text.hasPrefix("\(name) ") })
      #expect(label.text == "\(name) \(HitStatistics.format(value))")
      let marker = try #require(
        drawn.first { $0.name == "line" && $0.number("y1") == 400 && abs($0.number("x1") - x(value)) < 0.11 },
        "\(name) at \(value)")
      #expect(marker.number("x2") == marker.number("x1") && marker.number("y2") == 600)
    }
  }

  /// Each position of the bar is a box from its first to its third quartile, with its median, the
  /// positions in the bar's order, each labelled with its count.
  @Test func eachPositionIsABoxOfItsQuartiles() throws {
    // Beat 1 of four bars at 0, 2, 4, 6 ms late; beat 2 at -1, -2, -3, -4 ms; beats 3 and 4 on time.
    let byBeat: [[Int64]] = [[0, 96, 192, 288], [-48, -96, -144, -192], [0, 0, 0, 0], [0, 0, 0, 0]]
    let offsets = (0..<16).map { byBeat[$0 % 4][$0 / 4] }
    // Handed over last hit first: the boxes are in the bar's order all the same.
    let drawn = picture(scored(offsets).reversed())
    let boxes = drawn.filter { $0.name == "rect" && $0.attributes["fill"] == "#bee3f8" }
    try #require(boxes.count == 4)
    let axis = valueAxis(drawn, between: 670, 890)
    // Quartiles between the values around them: 1.5 and 4.5 ms for beat 1, -3.25 and -1.75 for beat 2.
    for (box, (q1, q3)) in zip(boxes, [(1.5, 4.5), (-3.25, -1.75), (0, 0), (0, 0)]) {
      #expect(abs(box.number("y") - height(of: q3, on: axis)) < 0.11)
      #expect(abs(box.number("y") + box.number("height") - max(height(of: q1, on: axis), box.number("y") + 1)) < 0.11)
    }
    let labels = drawn.filter { $0.name == "text" && $0.number("y") == 906 }.map(\.text)
    #expect(labels == ["1", "2", "3", "4"])
    #expect(
      drawn.filter { $0.name == "text" && $0.number("y") == 920 }.map(\.text) == Array(repeating: "4 hits", count: 4))
    let medians = drawn.filter { $0.name == "line" && $0.attributes["stroke-width"] == "3" }
    for (median, value) in zip(medians, [3.0, -2.5, 0, 0]) {
      #expect(abs(median.number("y1") - height(of: value, on: axis)) < 0.11)
    }
    let centres = boxes.map { $0.number("x") + $0.number("width") / 2 }
    #expect(zip(centres, centres.dropFirst()).allSatisfy { abs(($1 - $0) - (930 - 70) / 4) < 0.11 })
  }

  /// A take as a drummer plays it: 48 hits over 24 s on two notes, the kick late, the snare
  /// early, drifting later, a few far off.
  static func take() -> [ScoredHit] {
    var state: UInt32 = 2_026
    let clicks = steadyClicks(count: 49)
    return (0..<48).map { index in
      state = state &* 1_664_525 &+ 1_013_904_223
      let jitter = Int64(state >> 24) - 128
      let drift = Int64(index) * 12
      let note = index.isMultiple(of: 2) ? 36 : 38
      let lean: Int64 = note == 36 ? 240 : -300
      let stray: Int64 = index % 17 == 16 ? 1_700 : 0
      return ScoredHit(
        hit: Hit(frame: clicks[index].frame + lean + jitter * 3 + drift + stray, note: note, velocity: 90),
        click: clicks[index])
    }
  }

  /// A tight take: a keyboard player within 2 ms of a 2 ms tolerance, rushing a little, six
  /// beats of a 6/8 bar of eighths (dotted: 8 000 frames apart), each beat hit once or twice.
  static func tightTake() -> [ScoredHit] {
    let clicks = (0..<9).map { index in
      Beat(
        count: index, bar: index / 6 + 1, beatInBar: index % 6 + 1, meter: .fourFour, tempo: .standard,
        frame: Int64(index) * 8_000, sampleRate: .standard)
    }
    return [40, -30, 20, -60, 10, -80, 0, -90, -100].enumerated().map { index, offset in
      ScoredHit(
        hit: Hit(frame: clicks[index].frame + Int64(offset), note: Hit.keyNote, velocity: 100), click: clicks[index])
    }
  }

  /// A take at the edges of the histogram, judged at 20 ms: two notes, beat one hit on each, one
  /// hit in each bin it fills, the first in the leftmost bin and the last in the rightmost
  /// (45.4 ms either way on a range of 50), as many early as late, so that the mean is the median.
  static func edgeTake() -> [ScoredHit] {
    let clicks = steadyClicks(count: 5)
    let notes = [36, 38, 36, 38, 38]
    return [-2_180, -480, 0, 480, 2_180].enumerated().map { index, offset in
      ScoredHit(
        hit: Hit(frame: clicks[index].frame + Int64(offset), note: notes[index], velocity: 90), click: clicks[index])
    }
  }

  /// A wild take: three sources (a kick, a microphone, keys) up to 400 ms off, judged at 50.
  static func wildTake() -> [ScoredHit] {
    let clicks = steadyClicks(count: 13, spacing: 48_000)
    let offsets: [Int64] = [0, 19_200, -9_600, 4_800, -2_400, 14_400, -19_000, 2_400, 0, -4_800, 9_600, -14_400]
    let notes = [36, Hit.audioNote, Hit.keyNote]
    return offsets.enumerated().map { index, offset in
      ScoredHit(
        hit: Hit(frame: clicks[index].frame + offset, note: notes[index % 3], velocity: 90), click: clicks[index])
    }
  }

  /// The pictures of three takes as they were looked at in a browser (`Reference/NAME.svg`): any
  /// change to how they are drawn, a font, a margin, a colour, a scale, is a change to review,
  /// and to record by copying the new picture, which a failure writes beside the reference, over
  /// it.
  @Test(arguments: [("take", 20.0), ("tight", 2), ("wild", 50), ("edge", 20), ("empty", 20)])
  func thePictureIsTheOneLookedAt(name: String, tolerance: Double) throws {
    let takes = ["take": Self.take(), "tight": Self.tightTake(), "wild": Self.wildTake(), "edge": Self.edgeTake()]
    let hits = takes[name] ?? []
    try ReferencePicture.expect(ListeningReport.text(of: hits, tolerance: tolerance, as: .svg), isReference: name)
  }
}
