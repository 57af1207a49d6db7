import MetronomeAudio
import MetronomeCore

/// Renders periods of audio with clicks at their beats' exact frames.
///
/// Before each period it advances the audio clock past the period, which emits the beats due in it;
/// it then describes the period as the spans where a click sounds, each beat's click the one for
/// its level, a subdivision's or the second voice's their own. Within a voice one click sounds at
/// a time: a new click cuts the previous one, and a click that straddles a period goes on in the
/// next one; the second voice mixes into the beats. A silent click sounds nothing and cuts
/// nothing. The render path does not allocate while a period holds no more than
/// `maxBeatsPerPeriod` beats.
public final class ClickRenderer {
  /// The clock this renderer advances.
  public let clock: AudioClockScheduler
  /// The rate frames are counted at.
  public let sampleRate: SampleRate
  /// The first frame not yet rendered.
  public private(set) var cursor: Int64 = 0
  /// The beats whose clicks start in the period rendered last.
  public private(set) var beatsInLastPeriod: [Beat] = []
  /// The click of each voice, in the order of `SoundKit.Voice`.
  private var sounds: [[Float]]
  /// New sounds on their way from another thread.
  private let exchange = SoundExchange()
  /// The spans of the period rendered last and the clicks still sounding, kept in one value so
  /// that a period is laid out in a single access to the renderer's state.
  private var layout = SpanLayout()

  /// A renderer of the clicks of `kit`.
  public init(clock: AudioClockScheduler, sampleRate: SampleRate, kit: SoundKit, maxBeatsPerPeriod: Int = 256) {
    self.clock = clock
    self.sampleRate = sampleRate
    sounds = kit.sounds
    beatsInLastPeriod.reserveCapacity(maxBeatsPerPeriod)
    layout.spans.reserveCapacity(maxBeatsPerPeriod + 1)
  }

  /// Queues the click of `beat`; called on the render thread while the clock advances.
  public func enqueue(_ beat: Beat) { beatsInLastPeriod.append(beat) }

  /// Plays the clicks of `kit` from the next period on, cutting any click sounding then; call
  /// from any thread but the render thread.
  public func play(_ kit: SoundKit) { exchange.offer(kit.sounds) }

  /// Renders the next `frames` frames.
  public func render(frames: Int) -> RenderedPeriod {
    if let new = exchange.take(replacing: sounds) {
      sounds = new
      layout.silence()
    }
    let start = cursor
    advance(frames: frames)
    layout.layOut(beatsInLastPeriod, from: start, frames: frames, sounds: sounds)
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
/// voice (the beats', the second voice's) and how far it has played, carried into the next period.
private struct SpanLayout {
  var spans: [RenderedPeriod.Span] = []
  private var sounding: [(sound: Int, position: Int, gain: Float)?] = [nil, nil]

  /// Lays out the period of `frames` frames from `start` in which `beats` begin.
  mutating func layOut(_ beats: [Beat], from start: Int64, frames: Int, sounds: [[Float]]) {
    spans.removeAll(keepingCapacity: true)
    // The beats first: the second voice's spans mix into what they wrote.
    for voice in sounding.indices {
      var written = 0
      for beat in beats where (beat.isPolyrhythm ? 1 : 0) == voice {
        guard let click = SoundKit.voice(of: beat)?.rawValue, !sounds[click].isEmpty else { continue }
        let offset = Int(min(max(beat.frame - start, 0), Int64(frames)))
        sound(voice, from: written, to: offset, sounds: sounds)
        sounding[voice] = (click, 0, Float(beat.volume))
        written = offset
      }
      sound(voice, from: written, to: frames, sounds: sounds)
    }
  }

  /// Cuts every click sounding.
  mutating func silence() {
    for voice in sounding.indices { sounding[voice] = nil }
  }

  /// Lets the click sounding in `voice`, if any, go on over `[from, to)` of the period.
  private mutating func sound(_ voice: Int, from: Int, to: Int, sounds: [[Float]]) {
    guard let (sound, position, gain) = sounding[voice], to > from else { return }
    let length = sounds[sound].count
    let count = min(length - position, to - from)
    spans.append(
      RenderedPeriod.Span(
        offset: from, sound: sound, clickPosition: position, count: count, mixes: voice > 0, gain: gain))
    sounding[voice] = position + count < length ? (sound, position + count, gain) : nil
  }
}
