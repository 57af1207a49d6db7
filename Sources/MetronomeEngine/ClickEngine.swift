import MetronomeAudio
import MetronomeCore
import MetronomeViewModel
import OpenCombine

/// The audio clock, the view model playing on it and the renderer, wired together.
///
/// The same engine serves a WAV export, live ALSA playback and a virtual run; only the sink
/// differs.
///
/// It is not `Sendable`: the engine belongs to the thread that renders (the live player's, or the
/// caller's), and so do the actions scheduled on its clock. Other threads reach the view model
/// and the clock, both safe to use from any thread, through their own references.
public final class ClickEngine {
  /// The clock: live, the render cursor.
  public let clock: AudioClockScheduler
  /// The view model, playing from frame 0; send it input from any thread.
  public let viewModel: MetronomeViewModel
  /// The renderer that advances the clock.
  public let renderer: ClickRenderer
  /// The settings it was built with.
  public let settings: PlaybackSettings
  /// Every beat within the run's length, emitted on the render thread as the clock reaches it.
  public let beats: AnyPublisher<Beat, Never>
  /// The frame the run ends on: at once for a length in seconds, at the first beat past the
  /// length for a count, where a tempo map ends, at a quit replayed from a key script, and never
  /// later than the longest run.
  public private(set) var endFrame: Int64
  private var subscription: AnyCancellable?
  /// What is called with the first frame of each period before it is rendered.
  private var periodStarts: [(Int64) -> Void] = []
  /// Called with the first frame and the length of each period once it is rendered (its beats in
  /// `renderer.beatsInLastPeriod`), on the rendering thread: where a MIDI clock is sent.
  public var afterEachPeriod: ((Int64, Int) -> Void)?

  /// An engine playing `settings` from frame 0.
  public init(settings: PlaybackSettings) {
    self.settings = settings
    clock = AudioClockScheduler()
    renderer = ClickRenderer(
      clock: clock, sampleRate: settings.sampleRate,
      kit: SoundKit(
        settings.sound, sampleRate: settings.sampleRate, volume: settings.volume, samples: settings.samples),
      counting: settings.counting, countInApart: !settings.programme.countInPlaysTheBar)
    viewModel = MetronomeViewModel(
      initialMeter: settings.meter, initialTempo: settings.tempo, initialPattern: settings.pattern,
      initialSubdivision: settings.subdivision, initialPolyrhythm: settings.polyrhythm, programme: settings.programme,
      autoplay: settings.startsPlaying,
      cap: settings.cap,
      sampleRate: settings.sampleRate, beatScheduler: clock.eraseToBeatScheduler()
    )
    let longest = PlayLength.seconds(PlayLength.longestSeconds).endFrame(at: settings.sampleRate) ?? .max
    endFrame = min(settings.length?.endFrame(at: settings.sampleRate) ?? longest, longest)
    let length = settings.length
    let played = PassthroughSubject<Beat, Never>()
    beats = played.eraseToAnyPublisher()
    let programme = settings.programme
    subscription = viewModel.beat.sink { [unowned self] beat in
      guard beat.frame < self.endFrame else { return }
      // A song's end that is not the setlist's only marks where the next song starts.
      if beat.isMapEnd, !programme.endsRun(at: beat) { return }
      guard !beat.isMapEnd, length?.contains(beat) ?? true else {
        self.endFrame = beat.frame
        return
      }
      self.renderer.enqueue(beat)
      played.send(beat)
    }
  }

  /// Calls `body` with the first frame of each period before it is rendered, on the rendering
  /// thread, after what was added before: where an outside clock is read, and a player's hits.
  public func beforeEachPeriod(_ body: @escaping (Int64) -> Void) { periodStarts.append(body) }

  /// Ends the run at `frame` unless it ends earlier: what a quit key replayed on the clock does.
  public func end(atFrame frame: Int64) { endFrame = min(endFrame, max(frame, 0)) }

  /// Whether the whole run has been rendered.
  public var isFinished: Bool { renderer.cursor >= endFrame }

  /// Renders the next period of `frames` frames, cut short where the run ends.
  public func renderPeriod(frames: Int) -> RenderedPeriod {
    let start = renderer.cursor
    for body in periodStarts { body(start) }
    let period = renderer.render(frames: frames)
    afterEachPeriod?(start, Int(min(Int64(frames), max(endFrame - start, 0))))
    guard endFrame < start + Int64(frames) else { return period }
    let kept = Int(max(endFrame - start, 0))
    let spans = period.spans.compactMap { span -> RenderedPeriod.Span? in
      guard span.offset < kept else { return nil }
      return RenderedPeriod.Span(
        offset: span.offset, sound: span.sound, clickPosition: span.clickPosition,
        count: min(span.count, kept - span.offset), mixes: span.mixes, gain: span.gain)
    }
    return RenderedPeriod(frames: kept, spans: spans[...], sounds: period.sounds)
  }

  /// Skips up to `frames` of the run (never past its end) without rendering them, as after a
  /// glitch that lost them; returns the beats that fell in them.
  public func skip(frames: Int64) -> [Beat] {
    renderer.skip(frames: Int(min(frames, max(endFrame - renderer.cursor, 0))))
    return renderer.beatsInLastPeriod
  }

  /// The number of frames the run lasts at its starting tempo (exactly, when nothing changes it
  /// while it plays, as in an export); nil when open-ended, as is a setlist with a song that
  /// plays until the player moves on.
  public var expectedFrames: Int64? {
    let sequencer = BeatSequencer(
      startFrame: 0, tempo: settings.tempo, meter: settings.meter, programme: settings.programme,
      sampleRate: settings.sampleRate)
    guard let length = settings.length else {
      guard let setlist = settings.programme.setlist else {
        return settings.programme.map?.beatCount.map { min(sequencer.frame(ofBeat: $0), endFrame) }
      }
      // Each song starts, counted in, on the frame the one before it ended.
      var frames: Int64 = 0
      var programme = settings.programme
      for song in setlist.songs.indices {
        _ = programme.select(song: song)
        guard let beats = programme.map?.beatCount else { return nil }
        let songFrames = BeatSequencer(
          startFrame: 0, tempo: settings.tempo, meter: settings.meter, programme: programme,
          sampleRate: settings.sampleRate
        ).frame(ofBeat: beats)
        frames = frames.addingReportingOverflow(songFrames).partialValue
      }
      return min(frames, endFrame)
    }
    if let end = length.endFrame(at: settings.sampleRate) { return end }
    let beats: Int
    switch length {
    case .beats(let count): beats = count
    case .bars(let count): beats = count.multipliedReportingOverflow(by: settings.meter.numerator).partialValue
    case .seconds: return nil
    }
    return min(sequencer.frame(ofBeat: beats), endFrame)
  }
}
