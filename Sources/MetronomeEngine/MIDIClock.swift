import MetronomeCore

/// MIDI clock for the beats played: 24 ticks a quarter note, each on its exact frame within its
/// beat, Song Position Pointer and Start (or Continue) on the first beat of the music, and Stop
/// when the beats stop.
///
/// Each beat sets the phase: its ticks fall at its frame plus `i × length / ticks`, rounded, never
/// added up. A beat is always sent all its ticks, since receivers count them to know where they
/// are: those of a beat that a tempo change cuts short are spread over what is left of it in the
/// period its next beat falls in.
public struct MIDIClock: Sendable {
  /// A MIDI message the clock sends.
  public enum Message: Equatable, Sendable {
    /// Timing clock, 0xF8.
    case tick
    /// Start, 0xFA: from the beginning.
    case start
    /// Continue, 0xFB: from the song position just sent.
    case `continue`
    /// Stop, 0xFC.
    case stop
    /// Song Position Pointer, 0xF2: sixteenth notes since the beginning.
    case songPosition(Int)

    /// The clock message whose bytes these are (Song Position with its two data bytes after it);
    /// nil for any other message.
    public init?(_ status: UInt8, _ first: UInt8, _ second: UInt8) {
      switch status {
      case 0xF8: self = .tick
      case 0xFA: self = .start
      case 0xFB: self = .continue
      case 0xFC: self = .stop
      case 0xF2: self = .songPosition(Int(first & 0x7F) | Int(second & 0x7F) << 7)
      default: return nil
      }
    }

    /// The message's bytes, at most three, and how many there are.
    public var bytes: (UInt8, UInt8, UInt8, count: Int) {
      switch self {
      case .tick: (0xF8, 0, 0, 1)
      case .start: (0xFA, 0, 0, 1)
      case .continue: (0xFB, 0, 0, 1)
      case .stop: (0xFC, 0, 0, 1)
      case .songPosition(let sixteenths):
        (0xF2, UInt8(truncatingIfNeeded: sixteenths & 0x7F), UInt8(truncatingIfNeeded: (sixteenths >> 7) & 0x7F), 3)
      }
    }
  }

  /// The rate frames are counted at.
  public let sampleRate: SampleRate
  /// The beat setting the phase: its frame, its length in frames and its ticks.
  private var beat: (frame: Int64, length: Double, ticks: Int)?
  private var nextTick = 0
  /// The frame of the last tick sent.
  private var lastTick: Int64?
  private var isRunning = false

  /// A clock counting frames at `sampleRate`.
  public init(sampleRate: SampleRate) { self.sampleRate = sampleRate }

  /// Sends, through `send`, the messages of the period from frame `start` for `frames` frames,
  /// in which `beats` were played (in order; clicks that are not beats are passed over), the
  /// metronome `isPlaying` or not; the run's last period (`endsRun`) ends with Stop on its last
  /// frame.
  public mutating func messages(
    from start: Int64, frames: Int, beats: [Beat], isPlaying: Bool, endsRun: Bool = false,
    send: (Int64, Message) -> Void
  ) {
    defer { if endsRun { stop(atFrame: start + Int64(max(frames - 1, 0)), send: send) } }
    let end = start + Int64(frames)
    if !isPlaying { stop(atFrame: start, send: send) }
    for played in beats where played.subdivision == 0 && !played.isPolyrhythm && !played.isMapEnd {
      ticks(before: played.frame, send: send)
      remainingTicks(from: start, before: played.frame, send: send)
      if !isRunning, !played.isCountIn, isPlaying {
        let sixteenths =
          ((played.bar - 1) * played.meter.numerator + played.beatInBar - 1) * 16 / played.meter.denominator
        send(played.frame, .songPosition(sixteenths))
        send(played.frame, sixteenths == 0 ? .start : .continue)
        isRunning = true
      }
      let quarter = 60 / played.tempo.bpm * Double(sampleRate.hz)
      beat = (played.frame, quarter * 4 / Double(played.meter.denominator), 96 / played.meter.denominator)
      nextTick = 0
    }
    guard isPlaying else {
      beat = nil
      return
    }
    ticks(before: end, send: send)
  }

  /// Sends Stop at `frame` if the clock runs: where a pause or the end of the run stops it.
  private mutating func stop(atFrame frame: Int64, send: (Int64, Message) -> Void) {
    guard isRunning else { return }
    send(frame, .stop)
    isRunning = false
    beat = nil
  }

  /// Sends the current beat's ticks that fall before `frame`.
  private mutating func ticks(before frame: Int64, send: (Int64, Message) -> Void) {
    guard let beat else { return }
    while nextTick < beat.ticks {
      let tick = beat.frame + Int64((Double(nextTick) * beat.length / Double(beat.ticks)).rounded())
      guard tick < frame else { return }
      send(tick, .tick)
      lastTick = tick
      nextTick += 1
    }
  }

  /// Sends the current beat's ticks still to come, spread evenly from `start` (or just after the
  /// last tick) up to `frame`, where the next beat cuts the beat short (and replaces it).
  private mutating func remainingTicks(from start: Int64, before frame: Int64, send: (Int64, Message) -> Void) {
    guard let beat, nextTick < beat.ticks else { return }
    let missing = beat.ticks - nextTick
    let first = min(max(start, (lastTick ?? start) + 1), frame)
    for index in 0..<missing {
      let tick = first + (frame - first) * Int64(index) / Int64(missing)
      send(tick, .tick)
      lastTick = tick
    }
  }
}
