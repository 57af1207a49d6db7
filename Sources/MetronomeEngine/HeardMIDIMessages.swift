import MetronomeCore

/// MIDI messages timed by when their frames are heard, for an output that delivers each at
/// a time given from now (a queue of the ALSA sequencer).
///
/// The first message of each period takes a reading of the device's delay into the estimate
/// (`HeardTime`). Until a reading has said when frames are heard (the device starts playing once
/// its buffer is full, later than its delay says before that), messages are held, in room
/// reserved up front so that holding allocates nothing on the render thread, and sent as soon as
/// one has; should they not fit, they are sent at once.
public struct HeardMIDIMessages<Message> {
  private var heard: HeardTime
  private var held: [(frame: Int64, message: Message)] = []
  private let room: Int
  private var periodRead: Int64?

  /// Messages for frames counted at `sampleRate`, holding up to `room` of them.
  public init(sampleRate: SampleRate, room: Int) {
    heard = HeardTime(sampleRate: sampleRate)
    self.room = room
    held.reserveCapacity(room)
  }

  /// Room for the messages of a device's first `frames` at `sampleRate`: every tick at the
  /// fastest tempo, and Song Position and Start; and with `notes`, the note on and off of as many
  /// clicks again (a beat's subdivisions and a second voice come slower than ticks).
  public static func room(forFrames frames: Int, at sampleRate: SampleRate, notes: Bool = false) -> Int {
    let framesPerTick = Double(sampleRate.hz) * 60 / Tempo.range.upperBound / 24
    let ticks = Int(Double(frames) / framesPerTick) + 2
    return notes ? 3 * ticks : ticks
  }

  /// Passes `message`, for `frame` of the period from `periodStart`, to `output` with the time it
  /// is due, together with any held before it.
  ///
  /// The time is the monotonic clock's, in microseconds: when its frame is heard, or
  /// `nowNanoseconds` (the clock's time) when no reading has said so and there is no room to hold
  /// it. `delay` reads the device (see `AudioSink.timedOutputDelay`).
  ///
  /// Times rather than waits, so that messages for one frame are due at one time however long
  /// passing each took, and keep their order.
  public mutating func send(
    _ message: Message, atFrame frame: Int64, periodStart: Int64, nowNanoseconds: Int64,
    delay: () -> (frames: Int64, nanoseconds: Int64)?, to output: (Message, _ dueMicros: Int64) -> Void
  ) {
    if periodRead != periodStart {
      periodRead = periodStart
      if let reading = delay() {
        heard.read(frame: periodStart, heardInFrames: reading.frames, atMicros: reading.nanoseconds / 1000)
      }
    }
    let now = nowNanoseconds / 1000
    guard heard.micros(ofFrame: frame) != nil || held.count == room else {
      held.append((frame, message))
      return
    }
    for earlier in held { output(earlier.message, heard.micros(ofFrame: earlier.frame) ?? now) }
    held.removeAll(keepingCapacity: true)
    output(message, heard.micros(ofFrame: frame) ?? now)
  }
}
