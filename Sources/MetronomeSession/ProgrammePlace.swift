import MetronomeCore

/// How the display names where a programme is: the song, the section and bar, and what comes next
/// (the next section and its tempo, the next song, the end, a trainer's target).
struct ProgrammePlace {
  /// The programme the run started with: its setlist, maps and trainer.
  let programme: Programme

  /// "Ballad (2/3)" for song `index`; nil without a setlist.
  func song(_ index: Int?) -> String? {
    guard let setlist = programme.setlist, let index, setlist.songs.indices.contains(index) else { return nil }
    return "\(setlist.songs[index].title) (\(index + 1)/\(setlist.songs.count))"
  }

  /// The section `beat` is in ("verse (2/5)"), with its bar ("verse (2/5) · bar 3 of 12"), and
  /// what comes after it, `isLooping` or not; nil for a beat outside a map.
  func section(of beat: Beat, isLooping: Bool) -> (title: String, section: String, upcoming: String?)? {
    guard let place = beat.section, let map = programme.map(ofSong: beat.song),
      map.sections.indices.contains(place.index)
    else { return nil }
    let index = place.index
    let section = map.sections[index]
    let beatInSection = (place.barInSection - 1) * section.meter.numerator + beat.beatInBar - 1
    // The keys may have scaled the map: its tempos are shown as heard.
    let multiplier = beat.tempo.bpm / section.bpm(ofBeat: beatInSection)
    // A trainer's sections are its steps.
    let unnamed = programme.trainerTarget == nil ? "section" : "step"
    let name = { (at: Int) in map.sections[at].label ?? "\(unnamed) \(at + 1)" }
    let title = "\(name(index)) (\(index + 1)/\(map.sections.count))"
    let here = "\(title) · bar \(place.barInSection)" + (section.bars.map { " of \($0)" } ?? "")
    var upcoming: String?
    if isLooping, let bars = programme.loopBars {
      upcoming = "loop: bars \(bars.lowerBound)-\(bars.upperBound)"
    } else if isLooping {
      upcoming = "next: \(name(index)) again (loop)"
    } else if let bars = section.bars {
      let left = bars - place.barInSection + 1
      // An earned trainer's next step comes only if this block earns it.
      let when = "in \(left) bar\(left == 1 ? "" : "s")" + (programme.holdsSections ? " if earned" : "")
      if index + 1 < map.sections.count || map.loops {
        let next = map.sections[(index + 1) % map.sections.count]
        upcoming =
          "next: \(name((index + 1) % map.sections.count)) \(Tempo.format(next.bpm(ofBeat: 0) * multiplier)) BPM"
          + " \(next.meter) \(when)"
      } else if let setlist = programme.setlist, let song = beat.song, song + 1 < setlist.songs.count {
        upcoming = "next song: \(setlist.songs[song + 1].title) \(when)"
      } else {
        upcoming = "end \(when)"
      }
    }
    if let target = programme.trainerTarget {
      upcoming = (upcoming.map { $0 + " · " } ?? "") + "target \(Tempo.format(target * multiplier)) BPM"
    }
    return (title, here, upcoming)
  }
}
