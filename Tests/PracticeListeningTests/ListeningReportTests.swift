import MetronomeCore
import PracticeListening
import Testing

/// Hits on the clicks of `steadyClicks`, each at its offset in frames.
func scored(_ chosen: [Int64], notes: [Int] = [36]) -> [ScoredHit] {
  let clicks = steadyClicks(count: chosen.count + 1)
  return chosen.enumerated().map { index, offset in
    ScoredHit(
      hit: Hit(frame: clicks[index].frame + offset, note: notes[index % notes.count], velocity: 100),
      click: clicks[index])
  }
}

@Suite(.timeLimit(.minutes(1))) struct ListeningReportTests {
  @Test func aHitsLinesSayItsOffsetAndItsClick() {
    let hit = scored([0, -154])[1]
    #expect(HitLine.text(hit) == "0.496792 hit bar 1 beat 2 -3.2 ms note 36 velocity 100")
    #expect(
      HitLine.ndjson(hit)
        == "{\"hit\":true,\"time\":0.496792,\"frame\":23846,\"offset\":-3.208,\"offsetFrames\":-154,\"clickFrame\":24000,"
        + "\"bar\":1,\"beat\":2,\"sub\":0,\"note\":36,\"velocity\":100}")
    #expect(HitLine.text(scored([48])[0]) == "0.001000 hit bar 1 beat 1 +1.0 ms note 36 velocity 100")
    #expect(HitLine.csv(hit) == "0.496792,23846,-3.208,-154,24000,1,2,0,36,100")
    let heard = scored([-154], notes: [Hit.audioNote])[0]
    #expect(HitLine.text(heard) == "-0.003208 hit bar 1 beat 1 -3.2 ms audio velocity 100")
    #expect(HitLine.ndjson(heard).hasSuffix(",\"sub\":0,\"audio\":true,\"velocity\":100}"))
    #expect(HitLine.csv(heard).hasSuffix(",audio,100"))
  }

  /// An audio hit's ndjson line ends with what placed it, so that those placed before the click
  /// was heard at the microphone stand out; MIDI notes and keys say nothing of it.
  @Test func anAudioHitsNdjsonLineSaysWhatPlacedIt() {
    let click = scored([0])[0].click
    for (placement, word) in [
      (HitPlacement.heardClick(milliseconds: 5), "click"), (.calibration(day: nil), "calibration"),
      (.reportedLatency, "latencies"),
    ] {
      let hit = ScoredHit(
        hit: Hit(frame: click.frame + 48, note: Hit.audioNote, velocity: 90, placement: placement), click: click)
      #expect(HitLine.ndjson(hit).hasSuffix(",\"audio\":true,\"velocity\":90,\"placedBy\":\"\(word)\"}"))
    }
    #expect(!HitLine.ndjson(scored([48])[0]).contains("placedBy"))
  }

  @Test func theFormatIsTheFilesEnding() {
    #expect(ListeningReport.Format(path: "out/take.SVG") == .svg)
    #expect(ListeningReport.Format(path: "take.csv") == .csv)
    #expect(ListeningReport.Format(path: "take.ndjson") == .ndjson)
    #expect(ListeningReport.Format(path: "take.png") == nil)
    #expect(ListeningReport.Format(path: "take") == nil)
  }

  @Test func csvAndNDJSONHaveARowPerHitAndTheSummary() {
    let hits = scored([0, 48, -96, 480])
    let csv = ListeningReport.text(of: hits, tolerance: 5, as: .csv).split(separator: "\n")
    #expect(csv.count == 5 && csv[0] == Substring(HitLine.csvHeader))
    let ndjson = ListeningReport.text(of: hits, tolerance: 5, as: .ndjson).split(separator: "\n")
    #expect(ndjson.count == 5)
    #expect(ndjson[4].hasPrefix("{\"summary\":true,\"hits\":4,\"mean\":2.250,\"median\":0.500,"))
    #expect(ndjson[4].contains("\"onTime\":3,\"early\":0,\"late\":1,"))
    #expect(ListeningReport.text(of: [], tolerance: 5, as: .ndjson) == "{\"summary\":true,\"hits\":0}\n")
  }

  /// The `.ndjson` summary's every figure, worked by hand: offsets 0, 1, -2 and 10 ms half a
  /// second apart; mean 2.25, deviations -2.25, -1.25, -4.25, 7.75, whose squares average
  /// 21.1875 (deviation 4.603, unstable rate ten times it, 46.030); the fitted slope 6.75 / 1.25
  /// = 5.4 ms a second, 324 a minute.
  @Test func theNDJSONSummaryHoldsEveryFigure() {
    let summary = ListeningReport.text(of: scored([0, 48, -96, 480]), tolerance: 5, as: .ndjson)
      .split(separator: "\n").last.map(String.init)
    #expect(
      summary
        == "{\"summary\":true,\"hits\":4,\"mean\":2.250,\"median\":0.500,\"standardDeviation\":4.603,"
        + "\"unstableRate\":46.030,\"tolerance\":5.000,\"onTime\":3,\"early\":0,\"late\":1,\"driftPerMinute\":324.000}")
  }

  @Test func thePictureHasThreePlotsEveryHitAndTheFittedLine() {
    let hits = scored((0..<16).map { Int64($0) * -48 }, notes: [36, 38])
    let svg = ListeningReport.text(of: hits, tolerance: 20, as: .svg)
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    #expect(svg.hasSuffix("</svg>\n"))
    #expect(svg.contains("Offset of each hit over the run"))
    #expect(svg.contains("How many hits at each offset"))
    #expect(svg.contains("Each position of the bar and note"))
    #expect(svg.split(separator: "<circle", omittingEmptySubsequences: false).count - 1 == 16)
    // 1 ms earlier each half second: rushing 120 ms a minute.
    #expect(svg.contains("fitted line: rushing 120.0 ms a minute"))
    // Beats 1 to 4 of the bar, each on two notes: eight boxes.
    #expect(svg.contains(">1 n36<") && svg.contains(">4 n38<"))
    #expect(ListeningReport.text(of: [], tolerance: 20, as: .svg).contains("no hits were scored"))
  }
}
