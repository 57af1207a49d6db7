import MetronomeAudio
import MetronomeControl
import MetronomeCore
import OpenCombine

/// The metronome's state machine, as a reactive view model: Raytronome's inputs and outputs on
/// OpenCombine, each input an action that `MetronomeState.apply` reduces, with beats emitted on
/// an injected scheduler at exact frames.
///
/// Inputs may be sent from any thread; state changes are serialised by a lock and reach the
/// beat generator through the scheduler. Text outputs emit on the sending thread; `beat` and
/// `beatType` emit on the beat scheduler.
///
/// `@unchecked Sendable`: its subjects are thread-safe, every state change happens under `lock`,
/// and the beat generator is touched only on the beat scheduler.
public final class MetronomeViewModel: @unchecked Sendable {
  // MARK: Inputs

  /// The tempo in quarter notes per minute (Raytronome's slider); NaN is ignored and other
  /// values are clamped to 1...1000.
  public let tempo: CurrentValueSubject<Double, Never>
  /// The numerator the player asks for; the meter shows it clamped to `maxNumerator`.
  public let steppedNumerator: CurrentValueSubject<Int, Never>
  /// Raytronome's denominator stepper: 1, 2, 3, 4 select 4, 8, 16, 32; other values are clamped.
  public let steppedDenominator: CurrentValueSubject<Int, Never>
  /// Each value toggles playing and paused.
  public let tappedPlayPause = PassthroughSubject<Void, Never>()
  /// Each value is a tap for tap tempo, timed on the beat scheduler's clock.
  public let tappedTempo = PassthroughSubject<Void, Never>()
  /// Any other action a keyboard or a script sends: nudges, steps, a whole meter, reset.
  public let actions = PassthroughSubject<MetronomeAction, Never>()

  // MARK: Outputs

  /// "120 BPM", "97.5 BPM".
  public let tempoText: AnyPublisher<String, Never>
  /// The numerator as text, "4".
  public let numeratorText: AnyPublisher<String, Never>
  /// The denominator as text, "4".
  public let denominatorText: AnyPublisher<String, Never>
  /// The signature, "4/4".
  public let signatureText: AnyPublisher<String, Never>
  /// The numerator after clamping.
  public let numeratorValue: AnyPublisher<Int, Never>
  /// The largest numerator the denominator (and the cap) allows.
  public let maxNumerator: AnyPublisher<Int, Never>
  /// Whether the metronome is playing.
  public let isPlaying: AnyPublisher<Bool, Never>
  /// The level of each beat of the bar.
  public let pattern: AnyPublisher<AccentPattern, Never>
  /// How each beat is divided.
  public let subdivision: AnyPublisher<Subdivision, Never>
  /// Whether every beat is silenced.
  public let isMuted: AnyPublisher<Bool, Never>
  /// The second voice's clicks per bar while it sounds; nil when there is none or it is muted.
  public let polyrhythm: AnyPublisher<Int?, Never>
  /// The song of the setlist playing or chosen, from 0; nil without a setlist.
  public let song: AnyPublisher<Int?, Never>
  /// Whether the section playing repeats.
  public let isLooping: AnyPublisher<Bool, Never>
  /// Tempo, meter and playing together.
  public let settings: AnyPublisher<MetronomeSettings, Never>
  /// Every beat, on the beat scheduler at the beat's exact time.
  public let beat: AnyPublisher<Beat, Never>
  /// Raytronome's pendulum: `.even`, `.odd`, … with every beat.
  public let beatType: AnyPublisher<BeatParity, Never>

  private let state: CurrentValueSubject<MetronomeState, Never>
  private let beatScheduler: BeatScheduler
  private let lock = Lock(recursive: true)
  private var subscriptions: [AnyCancellable] = []

  /// A view model at `initialMeter`, `initialTempo`, `initialPattern` (beat one strong unless
  /// given), `initialSubdivision` and a second voice of `initialPolyrhythm` clicks per bar,
  /// playing `programme` (a map, whose starting tempo times its multiplier should be
  /// `initialTempo`; a count-in), at once if `autoplay`, whose beats are counted in frames at `sampleRate` and emitted
  /// on `beatScheduler`.
  public init(
    initialMeter: Meter = .fourFour,
    initialTempo: Tempo = .standard,
    initialPattern: AccentPattern? = nil,
    initialSubdivision: Subdivision = .none,
    initialPolyrhythm: Int? = nil,
    programme: Programme = Programme(),
    autoplay: Bool = false,
    cap: NumeratorCap = .denominator,
    sampleRate: SampleRate = .standard,
    beatScheduler: BeatScheduler
  ) {
    let initial = MetronomeState(
      tempo: initialTempo, meter: initialMeter, isPlaying: autoplay, cap: cap, pattern: initialPattern,
      subdivision: initialSubdivision, polyrhythm: initialPolyrhythm, programme: programme)
    let state = CurrentValueSubject<MetronomeState, Never>(initial)
    self.state = state
    self.beatScheduler = beatScheduler
    tempo = CurrentValueSubject(initialTempo.bpm)
    steppedNumerator = CurrentValueSubject(initialMeter.numerator)
    steppedDenominator = CurrentValueSubject(Meter.step(forDenominator: initialMeter.denominator))

    func output<Value: Equatable>(_ value: @escaping (MetronomeState) -> Value) -> AnyPublisher<Value, Never> {
      state.map(value).removeDuplicates().eraseToAnyPublisher()
    }
    tempoText = output(\.tempoText)
    numeratorText = output(\.numeratorText)
    denominatorText = output(\.denominatorText)
    signatureText = output(\.signatureText)
    numeratorValue = output(\.meter.numerator)
    maxNumerator = output(\.maxNumerator)
    isPlaying = output(\.isPlaying)
    pattern = output(\.pattern)
    subdivision = output(\.subdivision)
    isMuted = output(\.isMuted)
    polyrhythm = output(\.soundingPolyrhythm)
    song = output(\.songPlaying)
    isLooping = output(\.programme.loopsSection)
    settings = output(\.settings)

    let generator = BeatGenerator(scheduler: beatScheduler, sampleRate: sampleRate)
    beat = generator.beats.eraseToAnyPublisher()
    beatType = generator.beats.map(\Beat.parity).eraseToAnyPublisher()

    // The subjects replay their current values on subscription; dropping them keeps the
    // initial state exactly as given (a requested numerator above the cap stays requested).
    let inputs: [AnyPublisher<MetronomeAction, Never>] = [
      tempo.dropFirst().map(MetronomeAction.setTempo).eraseToAnyPublisher(),
      steppedNumerator.dropFirst().map(MetronomeAction.setNumerator).eraseToAnyPublisher(),
      steppedDenominator.dropFirst().map(MetronomeAction.setDenominatorStep).eraseToAnyPublisher(),
      tappedPlayPause.map { MetronomeAction.togglePlaying }.eraseToAnyPublisher(),
      tappedTempo.map { MetronomeAction.tapTempo(atSeconds: beatScheduler.now.seconds) }.eraseToAnyPublisher(),
      actions.eraseToAnyPublisher(),
      // A song that ends moves the setlist on, on the frame it ended.
      generator.songEnds.map(MetronomeAction.songEnded).eraseToAnyPublisher(),
    ]
    let lock = self.lock
    // Sent after the settings an action leads to, on the same scheduler: the beats take both in
    // the order they were made.
    let events = PassthroughSubject<BeatEvent, Never>()
    subscriptions += inputs.map { input in
      input.sink { action in
        lock.withLock {
          let previous = state.value
          var next = previous
          next.apply(action)
          state.send(next)
          next.beatEvents(after: action, from: previous).forEach(events.send)
        }
      }
    }
    subscriptions += [
      settings.receive(on: beatScheduler).sink { generator.apply($0) },
      events.receive(on: beatScheduler).sink { generator.receive($0) },
    ]
  }

  /// The current state, for a display that needs a value now rather than a stream.
  public var currentState: MetronomeState { lock.withLock { state.value } }
}

extension MetronomeViewModel: MetronomeStore {
  /// Sends `action` to the state, as every other input does.
  public func dispatch(_ action: MetronomeAction) { actions.send(action) }

  /// The beat scheduler's time now, in seconds.
  public var beatClockSeconds: Double { beatScheduler.now.seconds }
}
