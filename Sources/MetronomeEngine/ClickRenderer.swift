import MetronomeAudio
import MetronomeCore

/// Renders periods of audio with clicks at their beats' exact frames.
///
/// Before each period it advances the audio clock past the period, which emits the beats due in it;
/// it then describes the period as the spans where a click sounds, each beat's click the one for
/// its level, or a subdivision's own. One click sounds at a time: a new beat cuts the previous click, so clicks never add
/// up past full scale, and a click that straddles a period goes on in the next one. A silent beat
/// sounds nothing and cuts nothing. The render path does not allocate while a period
/// holds no more than `maxBeatsPerPeriod` beats.
public final class ClickRenderer {
  /// The clock this renderer advances.
  public let clock: AudioClockScheduler
  /// The rate frames are counted at.
  public let sampleRate: SampleRate
  /// The first frame not yet rendered.
  public private(set) var cursor: Int64 = 0
  /// The beats whose clicks start in the period rendered last.
  public private(set) var beatsInLastPeriod: [Beat] = []
  /// The click of each level, in the order of `AccentLevel.allCases`, then a subdivision's.
  private let sounds: [[Float]]
  private let subdivisionSound = AccentLevel.allCases.count
  private var spans: [RenderedPeriod.Span] = []
  private var voice: (sound: Int, position: Int)?

  /// A renderer of `sound` at `volume` (0...1).
  public init(
    clock: AudioClockScheduler, sampleRate: SampleRate, sound: ClickSound, volume: Double, maxBeatsPerPeriod: Int = 256
  ) {
    self.clock = clock
    self.sampleRate = sampleRate
    sounds =
      AccentLevel.allCases.map { sound.samples(level: $0, sampleRate: sampleRate, volume: volume) }
      + [sound.subdivisionSamples(sampleRate: sampleRate, volume: volume)]
    beatsInLastPeriod.reserveCapacity(maxBeatsPerPeriod)
    spans.reserveCapacity(maxBeatsPerPeriod + 1)
  }

  /// Queues the click of `beat`; called on the render thread while the clock advances.
  public func enqueue(_ beat: Beat) { beatsInLastPeriod.append(beat) }

  /// Renders the next `frames` frames.
  public func render(frames: Int) -> RenderedPeriod {
    let start = cursor
    advance(frames: frames)
    spans.removeAll(keepingCapacity: true)
    var written = 0
    for beat in beatsInLastPeriod {
      guard beat.level != .silent else { continue }
      let level = beat.isSubdivision ? subdivisionSound : beat.level.index
      let offset = Int(min(max(beat.frame - start, 0), Int64(frames)))
      sound(from: written, to: offset)
      voice = (level, 0)
      written = offset
    }
    sound(from: written, to: frames)
    return RenderedPeriod(frames: frames, spans: spans[...], sounds: sounds)
  }

  /// Moves the clock and the cursor on by `frames` without producing audio, as when a glitch lost
  /// them: the beats due are emitted and listed in `beatsInLastPeriod` but never sound, and a
  /// click sounding is cut.
  public func skip(frames: Int) {
    advance(frames: frames)
    voice = nil
  }

  /// Moves the clock and the cursor on by `frames`, emitting the beats due.
  private func advance(frames: Int) {
    beatsInLastPeriod.removeAll(keepingCapacity: true)
    cursor += Int64(frames)
    clock.advance(to: AudioTime(frame: cursor, sampleRate: sampleRate))
  }

  /// Lets the sounding click, if any, go on over `[from, to)` of the period.
  private func sound(from: Int, to: Int) {
    guard let (sound, position) = voice, to > from else { return }
    let length = sounds[sound].count
    let count = min(length - position, to - from)
    spans.append(RenderedPeriod.Span(offset: from, sound: sound, clickPosition: position, count: count))
    voice = position + count < length ? (sound, position + count) : nil
  }
}
