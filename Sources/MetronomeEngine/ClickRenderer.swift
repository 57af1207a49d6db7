import MetronomeAudio
import MetronomeCore

/// Renders periods of audio with clicks at their beats' exact frames.
///
/// Before each period it advances the audio clock past the period, which emits the beats due in it;
/// it then describes the period as the spans where a click sounds, each beat's click the one for
/// its level, a subdivision's or the second voice's their own. Within a voice one click sounds at
/// a time: a new click cuts the previous one, and a click that straddles a period goes on in the
/// next one; the second voice mixes into the beats. A silent click sounds nothing and cuts
/// nothing. A spoken count is a voice of its own, mixed in: each word cuts the one before, and
/// takes its click's place unless the count keeps the clicks. The render path does not allocate
/// while a period holds no more than `maxBeatsPerPeriod` beats.
public final class ClickRenderer {
  /// The clock this renderer advances.
  public let clock: AudioClockScheduler
  /// The rate frames are counted at.
  public let sampleRate: SampleRate
  /// The first frame not yet rendered.
  public private(set) var cursor: Int64 = 0
  /// The beats whose clicks start in the period rendered last.
  public private(set) var beatsInLastPeriod: [Beat] = []
  /// The click of each voice, in the order of `SoundKit.Voice`, then the spoken count's words.
  private var sounds: [[Float]]
  /// The spoken count, if any.
  private let counting: CountingVoice?
  /// Whether a count-in's beats play the count-in's own sound, rather than their levels' sounds.
  private let countInApart: Bool
  /// New sounds on their way from another thread.
  private let exchange = SoundExchange()
  /// The spans of the period rendered last and the clicks still sounding, kept in one value so
  /// that a period is laid out in a single access to the renderer's state.
  private var layout = SpanLayout()

  /// A renderer of the clicks of `kit`, and of `counting`'s words; a count-in sounds as the bar
  /// does where `countInApart` is false.
  public init(
    clock: AudioClockScheduler, sampleRate: SampleRate, kit: SoundKit, counting: CountingVoice? = nil,
    countInApart: Bool = true, maxBeatsPerPeriod: Int = 256
  ) {
    self.clock = clock
    self.sampleRate = sampleRate
    self.counting = counting
    self.countInApart = countInApart
    sounds = kit.sounds + (counting?.sounds ?? [])
    beatsInLastPeriod.reserveCapacity(maxBeatsPerPeriod)
    // A span for each click and each word (and a shortened word's end), and one for each voice carried over.
    layout.spans.reserveCapacity(3 * maxBeatsPerPeriod + 4)
  }

  /// Queues the click of `beat`; called on the render thread while the clock advances.
  public func enqueue(_ beat: Beat) { beatsInLastPeriod.append(beat) }

  /// Plays the clicks of `kit` from the next period on, cutting any click sounding then; call
  /// from any thread but the render thread.
  public func play(_ kit: SoundKit) { exchange.offer(kit.sounds + (counting?.sounds ?? [])) }

  /// Renders the next `frames` frames.
  public func render(frames: Int) -> RenderedPeriod {
    if let new = exchange.take(replacing: sounds) {
      sounds = new
      layout.silence()
    }
    let start = cursor
    advance(frames: frames)
    layout.layOut(
      beatsInLastPeriod, from: start, frames: frames, sounds: sounds, counting: counting, countInApart: countInApart)
    return RenderedPeriod(frames: frames, spans: layout.spans[...], sounds: sounds)
  }

  /// Moves the clock and the cursor on by `frames` without producing audio, as when a glitch lost
  /// them: the beats due are emitted and listed in `beatsInLastPeriod` but never sound, and a
  /// click sounding is cut.
  public func skip(frames: Int) {
    advance(frames: frames)
    layout.silence()
  }

  /// Moves the clock and the cursor on by `frames`, emitting the beats due.
  private func advance(frames: Int) {
    beatsInLastPeriod.removeAll(keepingCapacity: true)
    cursor += Int64(frames)
    clock.advance(to: AudioTime(frame: cursor, sampleRate: sampleRate))
  }
}

/// Where the clicks of a period sound: the spans it lays out, and the click sounding in each
/// voice (the beats', the second voice's, the spoken count's) and how far it has played, carried
/// into the next period.
private struct SpanLayout {
  /// A sound playing in a voice: from `position` until `end`, then `then` (a shortened word's
  /// fading end) from its start, if any.
  private struct Sounding {
    var sound: Int
    var position = 0
    var end: Int
    var then: Int?
    var gain: Float
  }

  var spans: [RenderedPeriod.Span] = []
  private var sounding: [Sounding?] = [nil, nil, nil]
  /// The voices, as `sounding` holds them.
  private static let (beats, secondVoice, spoken) = (0, 1, 2)
  /// Where the words start among the sounds, after the clicks.
  ///
  /// Counted once: `allCases` makes an array each time it is read, and the render thread must not
  /// allocate.
  private static let firstWord = SoundKit.Voice.allCases.count

  /// Lays out the period of `frames` frames from `start` in which `beats` begin, with the words of
  /// `counting`, if any; a count-in in its own sound unless `countInApart` is false.
  mutating func layOut(
    _ beats: [Beat], from start: Int64, frames: Int, sounds: [[Float]], counting: CountingVoice?, countInApart: Bool
  ) {
    spans.removeAll(keepingCapacity: true)
    // The beats first: the second voice's spans and the words mix into what they wrote.
    for voice in sounding.indices {
      var written = 0
      for beat in beats {
        guard
          let next = Self.sounding(
            of: beat, in: voice, counting: counting, countInApart: countInApart, sounds: sounds)
        else { continue }
        let offset = Int(min(max(beat.frame - start, 0), Int64(frames)))
        sound(voice, from: written, to: offset, sounds: sounds)
        sounding[voice] = next
        written = offset
      }
      sound(voice, from: written, to: frames, sounds: sounds)
    }
  }

  /// What `beat` starts sounding in `voice`; nil for nothing.
  private static func sounding(
    of beat: Beat, in voice: Int, counting: CountingVoice?, countInApart: Bool, sounds: [[Float]]
  ) -> Sounding? {
    guard let click = SoundKit.voice(of: beat, countInApart: countInApart) else { return nil }
    switch voice {
    // A beat clicks unless a word is said in its place (asked only of a count without clicks).
    case Self.beats where !beat.isPolyrhythm && (counting?.withClick != false || counting?.said(for: beat) == nil),
      Self.secondVoice where beat.isPolyrhythm:
      let sound = click.rawValue
      return sounds[sound].isEmpty ? nil : Sounding(sound: sound, end: sounds[sound].count, gain: Float(beat.volume))
    case Self.spoken:
      // A word is as loud as its click's level would be.
      return counting?.said(for: beat).map { said in
        Sounding(
          sound: firstWord + said.sound, end: said.length, then: said.end.map { firstWord + $0 },
          gain: Float(beat.volume) * click.peak)
      }
    default:
      return nil
    }
  }

  /// Cuts every click sounding.
  mutating func silence() {
    for voice in sounding.indices { sounding[voice] = nil }
  }

  /// Lets the sound playing in `voice`, if any, go on over `[from, to)` of the period.
  private mutating func sound(_ voice: Int, from: Int, to: Int, sounds: [[Float]]) {
    var from = from
    while var playing = sounding[voice], to > from {
      let count = min(playing.end - playing.position, to - from)
      spans.append(
        RenderedPeriod.Span(
          offset: from, sound: playing.sound, clickPosition: playing.position, count: count, mixes: voice > 0,
          gain: playing.gain))
      from += count
      playing.position += count
      if playing.position < playing.end {
        sounding[voice] = playing
      } else if let then = playing.then {
        sounding[voice] = Sounding(sound: then, end: sounds[then].count, gain: playing.gain)
      } else {
        sounding[voice] = nil
      }
    }
  }
}
