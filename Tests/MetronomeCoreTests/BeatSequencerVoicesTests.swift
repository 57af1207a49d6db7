import MetronomeCore
import Testing

/// The clicks a sequencer lays on the beats, against the rule written out plainly: each beat
/// divided evenly from its own click, the second voice spread evenly over each bar from its beat
/// one, in frame order (a beat first, then a subdivision's click, then the second voice's); a
/// count-in of its own before bar one; a gap's bars silent in every voice.
@Suite(.timeLimit(.minutes(1)))
struct BeatSequencerVoicesTests {
  /// A click as the tests compare them: frame, voice, bar, beat, subdivision and level.
  private struct Click: Equatable, CustomStringConvertible {
    let frame: Int64
    let voice: String
    let bar: Int
    let beat: Int
    let sub: Int
    let level: AccentLevel

    var description: String { "\(frame) \(voice) \(bar).\(beat).\(sub) \(level)" }
  }

  private func click(_ beat: Beat) -> Click {
    let voice =
      switch beat.voice {
      case .beats: beat.isCountIn ? "count-in" : "beat"
      case .polyrhythm(let click, let of): "voice \(click)/\(of)"
      }
    return Click(
      frame: beat.frame, voice: voice, bar: beat.bar, beat: beat.beatInBar, sub: beat.subdivision, level: beat.level)
  }

  /// The clicks the rule gives for `bars` bars of 4/4 at 120 (24 000 frames a beat), each beat in
  /// `division` clicks and `voice` clicks a bar against them (each told with the beat it falls
  /// in), bar one starting at `start`, the bars `muted` silent.
  private func expected(bars: Int, division: Int, voice: Int?, start: Int64 = 0, muted: Set<Int> = []) -> [Click] {
    var clicks: [(Click, Int)] = []
    for bar in 1...bars {
      let barStart = start + Int64(bar - 1) * 96_000
      let silent = muted.contains(bar)
      for beat in 1...4 {
        let frame = barStart + Int64(beat - 1) * 24_000
        let level: AccentLevel = silent ? .silent : beat == 1 ? .strong : .normal
        clicks.append((Click(frame: frame, voice: "beat", bar: bar, beat: beat, sub: 0, level: level), 0))
        for sub in 1..<division {
          let at = frame + Int64((24_000 * Double(sub) / Double(division)).rounded())
          clicks.append(
            (Click(frame: at, voice: "beat", bar: bar, beat: beat, sub: sub, level: silent ? .silent : .normal), 1))
        }
      }
      for click in 0..<(voice ?? 0) {
        let at = barStart + Int64((96_000 * Double(click) / Double(voice ?? 1)).rounded())
        clicks.append(
          (
            Click(
              frame: at, voice: "voice \(click)/\(voice ?? 0)", bar: bar, beat: Int((at - barStart) / 24_000) + 1,
              sub: 0,
              level: silent ? .silent : .normal), 2
          ))
      }
    }
    return clicks.sorted { ($0.0.frame, $0.1) < ($1.0.frame, $1.1) }.map(\.0)
  }

  /// The clicks `sequencer` plays before `frame`.
  private func played(_ sequencer: BeatSequencer, before frame: Int64) -> [Click] {
    var sequencer = sequencer
    var clicks: [Click] = []
    while let next = sequencer.nextFrame, next < frame { clicks.append(click(sequencer.advance())) }
    return clicks
  }

  @Test(arguments: [(2, 3), (3, 3), (4, 5), (3, 7), (2, nil), (1, 3)])
  func subdivisionsAndTheSecondVoiceFallWhereTheRuleSays(division: Int, voice: Int?) throws {
    let sequencer = BeatSequencer(
      startFrame: 0, tempo: .standard, meter: .fourFour,
      rhythm: Rhythm(subdivision: try Subdivision(division), polyrhythm: voice), sampleRate: .standard)
    let clicks = played(sequencer, before: 3 * 96_000)
    let rule = expected(bars: 3, division: division, voice: voice)
    #expect(clicks == rule, "\(zip(clicks, rule).first { $0 != $1 }.map { "\($0) ≠ \($1)" } ?? "count")")
  }

  /// The bar's own beats are told apart from a subdivision's clicks and the second voice's, which
  /// may fall on the same frame.
  @Test func theBarsOwnBeatsAreNeitherSubdivisionsNorTheSecondVoice() throws {
    var sequencer = BeatSequencer(
      startFrame: 0, tempo: .standard, meter: .fourFour,
      rhythm: Rhythm(subdivision: try Subdivision(2), polyrhythm: 3), sampleRate: .standard)
    var barBeats: [Int64] = []
    var others = 0
    while let next = sequencer.nextFrame, next < 96_000 {
      let beat = sequencer.advance()
      if beat.isBarBeat { barBeats.append(beat.frame) } else { others += 1 }
    }
    #expect(barBeats == [0, 24_000, 48_000, 72_000])
    #expect(others == 4 + 3)
  }

  /// A gap's bars are counted and silent, in every voice; the bars around them sound.
  @Test func aGapSilencesEveryVoiceOfItsBars() throws {
    let sequencer = BeatSequencer(
      startFrame: 0, tempo: .standard, meter: .fourFour,
      rhythm: Rhythm(subdivision: try Subdivision(2), polyrhythm: 3),
      programme: Programme(gap: .bars(play: 1, mute: 1)), sampleRate: .standard)
    #expect(played(sequencer, before: 3 * 96_000) == expected(bars: 3, division: 2, voice: 3, muted: [2]))
  }

  /// A count-in of bars plays them whole, counted to 0, then bar one; of beats, the last beats of
  /// a bar; klick's 0 two normal beats of 2/4; none of them divided or against the second voice.
  @Test func aCountInPlaysAloneBeforeBarOne() throws {
    let rhythm = Rhythm(subdivision: try Subdivision(2), polyrhythm: 3)
    // The count-in's places among the beats of its 4/4 bars (counted from 1), the last bar's last
    // beat leading into bar one: each bar numbered up to 0, beat one strong.
    let lead = { (places: ClosedRange<Int>) in
      places.map { place in
        Click(
          frame: Int64(place - places.lowerBound) * 24_000, voice: "count-in",
          bar: (place - 1) / 4 - (places.upperBound - 1) / 4, beat: (place - 1) % 4 + 1, sub: 0,
          level: (place - 1) % 4 == 0 ? .strong : .normal)
      }
    }
    // klick's 0: two normal beats of 2/4.
    let klicksTwo = (1...2).map {
      Click(frame: Int64($0 - 1) * 24_000, voice: "count-in", bar: 0, beat: $0, sub: 0, level: .normal)
    }
    for (countIn, lead): (CountIn, [Click]) in [
      (.bars(1), lead(1...4)), (.bars(2), lead(1...8)), (.beats(3), lead(2...4)), (.beats(6), lead(3...8)),
      (.bars(0), klicksTwo),
    ] {
      let sequencer = BeatSequencer(
        startFrame: 0, tempo: .standard, meter: .fourFour, rhythm: rhythm, programme: Programme(countIn: countIn),
        sampleRate: .standard)
      let start = Int64(lead.count) * 24_000
      let clicks = played(sequencer, before: start + 96_000)
      #expect(Array(clicks.prefix(lead.count)) == lead, "\(countIn)")
      #expect(
        Array(clicks.dropFirst(lead.count)) == expected(bars: 1, division: 2, voice: 3, start: start), "\(countIn)")
    }
  }

  /// A count-in that plays the bar (as while a microphone listens) is the bars' rhythm, counted,
  /// stating the beat first.
  ///
  /// Numbered to 0, the second voice from its bar's beat one; its first two beats undivided ("one,
  /// two, three-and, four-and": a room's answer to each beat's click is heard whole before a
  /// subdivision's overlaps it), the rest divided as the bars are; then bar one. A count-in of two
  /// beats, the last ones of a bar, is divided throughout, and has no second voice; one of three
  /// states one beat.
  @Test func aCountInThatPlaysTheBarStatesTheBeatThenIsDividedAndHasTheSecondVoice() throws {
    let rhythm = Rhythm(subdivision: try Subdivision(2), polyrhythm: 3)
    var programme = Programme(countIn: .bars(1))
    programme.countInPlaysTheBar = true
    let bar = BeatSequencer(
      startFrame: 0, tempo: .standard, meter: .fourFour, rhythm: rhythm, programme: programme, sampleRate: .standard)
    let stated = { (click: Click) in click.voice == "beat" && click.sub > 0 && click.beat <= 2 }
    let countedIn = expected(bars: 1, division: 2, voice: 3).filter { !stated($0) }.map { click in
      Click(
        frame: click.frame, voice: click.voice == "beat" ? "count-in" : click.voice, bar: 0, beat: click.beat,
        sub: click.sub, level: click.level)
    }
    #expect(played(bar, before: 2 * 96_000) == countedIn + expected(bars: 1, division: 2, voice: 3, start: 96_000))
    programme.countIn = .beats(2)
    let beats = BeatSequencer(
      startFrame: 0, tempo: .standard, meter: .fourFour, rhythm: rhythm, programme: programme, sampleRate: .standard)
    let lead = [(0, 3, 0), (12_000, 3, 1), (24_000, 4, 0), (36_000, 4, 1)].map { frame, beat, sub in
      Click(frame: Int64(frame), voice: "count-in", bar: 0, beat: beat, sub: sub, level: .normal)
    }
    #expect(played(beats, before: 48_000 + 96_000) == lead + expected(bars: 1, division: 2, voice: 3, start: 48_000))
    programme.countIn = .beats(3)
    let three = BeatSequencer(
      startFrame: 0, tempo: .standard, meter: .fourFour, rhythm: rhythm, programme: programme, sampleRate: .standard)
    #expect(played(three, before: 72_000).map(\.sub) == [0, 0, 1, 0, 1])
    // Over two bars, each bar's clicks as loud as bar one's, but for the first two beats'
    // subdivisions, which are left out; the second voice starting again on each.
    programme.countIn = .bars(2)
    var twoBars = BeatSequencer(
      startFrame: 0, tempo: .standard, meter: .fourFour, rhythm: rhythm, programme: programme, sampleRate: .standard)
    var heard: [Beat] = []
    while let next = twoBars.nextFrame, next < 3 * 96_000 { heard.append(twoBars.advance()) }
    let (countIn, music) = (heard.filter(\.isCountIn), heard.filter { !$0.isCountIn })
    let stating = music.filter { !($0.subdivision > 0 && $0.beatInBar <= 2 && !$0.isPolyrhythm) }
    #expect(music.count == 11 && countIn.map(\.volume) == stating.map(\.volume) + music.map(\.volume))
    #expect(countIn.filter(\.isPolyrhythm).map(\.frame) == [0, 32_000, 64_000, 96_000, 128_000, 160_000])
  }

  /// Each click's count: the count-in's from minus its length, the music's from 0, a beat's
  /// subdivisions and the second voice's clicks sharing their beat's.
  @Test func beatsAreCountedFromTheMusic() throws {
    var sequencer = BeatSequencer(
      startFrame: 0, tempo: .standard, meter: .fourFour, rhythm: Rhythm(subdivision: try Subdivision(2), polyrhythm: 3),
      programme: Programme(countIn: .beats(2)), sampleRate: .standard)
    var counts: [Int] = []
    while let next = sequencer.nextFrame, next < 48_000 + 48_000 { counts.append(sequencer.advance().count) }
    #expect(counts == [-2, -1, 0, 0, 0, 1, 1, 1])
  }

  /// A second voice changed in mid-bar stops at once and comes back with the next bar; so does
  /// the rest of a bar whose meter changed.
  @Test func aSecondVoiceChangedInMidBarComesBackWithTheNextBar() throws {
    var sequencer = BeatSequencer(
      startFrame: 0, tempo: .standard, meter: .fourFour, rhythm: Rhythm(polyrhythm: 3), sampleRate: .standard)
    var clicks: [Click] = []
    while let next = sequencer.nextFrame, next < 24_000 { clicks.append(click(sequencer.advance())) }
    sequencer.change(tempo: .standard, meter: .fourFour, rhythm: Rhythm(polyrhythm: 2), earliestFrame: 24_000)
    while let next = sequencer.nextFrame, next < 2 * 96_000 { clicks.append(click(sequencer.advance())) }
    #expect(clicks.filter { $0.voice.hasPrefix("voice") }.map(\.frame) == [0, 96_000, 144_000])
    #expect(clicks.filter { $0.voice.hasPrefix("voice") }.map(\.voice) == ["voice 0/3", "voice 0/2", "voice 1/2"])
  }

  /// A tempo or a meter changed in mid-bar, the second voice kept, drops the rest of that bar's
  /// voice, which comes back with the next bar spread over it: three against 4/4 at 120, changed
  /// after beat one to 60 (the next beat 48 000 frames after it, bar two from 192 000) or to 3/4
  /// (bar two from 72 000).
  @Test(arguments: [(60, 4, [0, 192_000, 256_000, 320_000]), (120, 3, [0, 72_000, 96_000, 120_000])])
  func aTempoOrMeterChangedInMidBarDropsTheRestOfThatBarsVoice(bpm: Double, beats: Int, frames: [Int64]) throws {
    var sequencer = BeatSequencer(
      startFrame: 0, tempo: .standard, meter: .fourFour, rhythm: Rhythm(polyrhythm: 3), sampleRate: .standard)
    var clicks: [Click] = []
    while let next = sequencer.nextFrame, next < 24_000 { clicks.append(click(sequencer.advance())) }
    sequencer.change(
      tempo: try Tempo(bpm: bpm), meter: try Meter(beats, 4), rhythm: Rhythm(polyrhythm: 3), earliestFrame: 24_000)
    while let next = sequencer.nextFrame, next <= frames[3] { clicks.append(click(sequencer.advance())) }
    #expect(clicks.filter { $0.voice.hasPrefix("voice") }.map(\.frame) == frames)
  }

  /// A beat's subdivision clicks keep to the beat as it was divided; one that a tempo raised in
  /// mid-beat brings the next beat onto, or past, is dropped, never played beside it: 4/4 at 60
  /// in halves (the half on 24 000), raised after beat one to 120 (beat two on 24 000) or to 240
  /// (beat two on 12 000).
  @Test(arguments: [
    (120, [0, 24_000, 36_000, 48_000], [0, 0, 1, 0]),
    (240, [0, 12_000, 18_000, 24_000, 30_000, 36_000], [0, 0, 1, 0, 1, 0]),
  ])
  func aSubdivisionTheNextBeatReachesIsDropped(bpm: Double, frames: [Int64], subdivisions: [Int]) throws {
    let halves = Rhythm(subdivision: try Subdivision(2))
    var sequencer = BeatSequencer(
      startFrame: 0, tempo: try Tempo(bpm: 60), meter: .fourFour, rhythm: halves, sampleRate: .standard)
    var clicks = [click(sequencer.advance())]
    sequencer.change(tempo: try Tempo(bpm: bpm), meter: .fourFour, rhythm: halves, earliestFrame: 1)
    while let next = sequencer.nextFrame, next <= frames.last ?? 0 { clicks.append(click(sequencer.advance())) }
    #expect(clicks.map(\.frame) == frames)
    #expect(clicks.map(\.sub) == subdivisions)
  }
}
