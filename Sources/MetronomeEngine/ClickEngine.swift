import MetronomeCore
import MetronomeViewModel
import OpenCombine

/// What to play: everything that export, live playback and virtual runs have in common.
public struct PlaybackSettings: Sendable {
  public var meter: Meter
  public var tempo: Tempo
  public var cap: NumeratorCap
  public var sampleRate: SampleRate
  public var sound: ClickSound
  public var volume: Double
  /// When to stop; nil plays until stopped.
  public var length: PlayLength?

  /// Settings as given.
  public init(
    meter: Meter = .fourFour, tempo: Tempo = .standard, cap: NumeratorCap = .denominator,
    sampleRate: SampleRate = .standard, sound: ClickSound = .pulse, volume: Double = 1, length: PlayLength? = nil
  ) {
    self.meter = meter
    self.tempo = tempo
    self.cap = cap
    self.sampleRate = sampleRate
    self.sound = sound
    self.volume = volume
    self.length = length
  }
}

/// The audio clock, the view model playing on it and the renderer, wired together. The same
/// engine serves a WAV export, live ALSA playback and a virtual run; only the sink differs.
public final class ClickEngine: @unchecked Sendable {
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
  /// The frame the run ends on, once known: at once for a length in seconds, at the first beat
  /// past the length otherwise; nil while it plays on.
  public private(set) var endFrame: Int64?
  private var subscription: AnyCancellable?

  /// An engine playing `settings` from frame 0.
  public init(settings: PlaybackSettings) {
    self.settings = settings
    clock = AudioClockScheduler()
    renderer = ClickRenderer(
      clock: clock, sampleRate: settings.sampleRate, sound: settings.sound, volume: settings.volume)
    viewModel = MetronomeViewModel(
      initialMeter: settings.meter, initialTempo: settings.tempo, autoplay: true, cap: settings.cap,
      sampleRate: settings.sampleRate, beatScheduler: clock.eraseToBeatScheduler()
    )
    endFrame = settings.length?.endFrame(at: settings.sampleRate)
    let length = settings.length
    let played = PassthroughSubject<Beat, Never>()
    beats = played.eraseToAnyPublisher()
    subscription = viewModel.beat.sink { [unowned self] beat in
      guard self.endFrame.map({ beat.frame < $0 }) ?? true else { return }
      guard length?.contains(beat) ?? true else {
        self.endFrame = beat.frame
        return
      }
      self.renderer.enqueue(beat)
      played.send(beat)
    }
  }

  /// Whether the whole run has been rendered.
  public var isFinished: Bool { endFrame.map { renderer.cursor >= $0 } ?? false }

  /// Renders the next period of `frames` frames, cut short where the run ends.
  public func renderPeriod(frames: Int) -> RenderedPeriod {
    let start = renderer.cursor
    let period = renderer.render(frames: frames)
    guard let endFrame, endFrame < start + Int64(frames) else { return period }
    let kept = Int(max(endFrame - start, 0))
    let spans = period.spans.compactMap { span -> RenderedPeriod.Span? in
      guard span.offset < kept else { return nil }
      return RenderedPeriod.Span(
        offset: span.offset, isAccent: span.isAccent, clickPosition: span.clickPosition,
        count: min(span.count, kept - span.offset))
    }
    return RenderedPeriod(frames: kept, spans: spans[...], accent: period.accent, regular: period.regular)
  }

  /// The number of frames the run is expected to last, from its starting tempo; nil when open-ended.
  public var expectedFrames: Int64? {
    guard let length = settings.length else { return nil }
    if let end = length.endFrame(at: settings.sampleRate) { return end }
    let beats: Int
    switch length {
    case .beats(let count): beats = count
    case .bars(let count): beats = count * settings.meter.numerator
    case .seconds: return nil
    }
    let grid = BeatGrid(
      anchorFrame: 0, tempo: settings.tempo, denominator: settings.meter.denominator, sampleRate: settings.sampleRate)
    return grid.frame(ofBeat: beats)
  }
}
