import MetronomeCore

/// Turns MIDI clock received into anchors for the view model to follow, one cycle at a time: it
/// plays from a Start (or a Continue, from the Song Position sent before it) and stops at a Stop,
/// 24 ticks a quarter note, the tempo measured over the last quarter's ticks, or those since the
/// last that came a quarter sooner or a third later than the one before (a tempo change, ticks
/// crowded after one).
///
/// Each cycle is read at its first tick, the clock's place there known exactly; the beats are
/// placed as a transport's, in the meter playing here, bars counted from the song's start.
public struct MIDIClockFollower: Sendable {
  /// The ticks the tempo is measured over: a quarter note's.
  static let measuredTicks = 24
  /// A pause between ticks longer than this (a clock at 1 BPM) starts the measuring again.
  static let longestTickSeconds = 2.5
  private var transport: TransportFollower
  private var isRunning = false
  /// The next tick's place: ticks since the song's start, six a sixteenth note.
  private var nextTick = 0
  /// The frames of the last ticks, oldest first, at most `measuredTicks + 1`.
  private var tickFrames: [Int64] = []
  /// The first tick of the cycle being received (the last of several on its frame), and its place.
  private var firstTick: (frame: Int64, place: Int)?

  /// A follower counting frames at `sampleRate`.
  public init(sampleRate: SampleRate) {
    transport = TransportFollower(sampleRate: sampleRate, source: .midi)
    tickFrames.reserveCapacity(Self.measuredTicks + 1)
  }

  /// Takes `message`, received at `frame` in the cycle being read.
  public mutating func receive(_ message: MIDIClock.Message, atFrame frame: Int64) {
    switch message {
    case .tick:
      if let last = tickFrames.last,
        Double(frame - last) > Self.longestTickSeconds * Double(transport.sampleRate.hz) || frame < last
      {
        tickFrames.removeAll(keepingCapacity: true)
      } else if tickFrames.count >= 2, let last = tickFrames.last {
        let interval = frame - last
        let previous = last - tickFrames[tickFrames.count - 2]
        if interval * 4 < previous * 3 || interval * 3 > previous * 4 {
          tickFrames.removeFirst(tickFrames.count - 1)
        }
      }
      if tickFrames.count > Self.measuredTicks { tickFrames.removeFirst() }
      tickFrames.append(frame)
      guard isRunning else { return }
      if firstTick == nil || firstTick?.frame == frame { firstTick = (frame, nextTick) }
      nextTick += 1
    case .start:
      nextTick = 0
      isRunning = true
    case .continue:
      isRunning = true
    case .stop:
      isRunning = false
    case .songPosition(let sixteenths):
      nextTick = sixteenths * 6
    }
  }

  /// The change the messages received in the cycle starting on `cycleStart` call for, the
  /// metronome playing at `tempo` in `meter`: `.some(anchor)` to follow, `.some(nil)` to stop,
  /// nil for none.
  public mutating func follow(cycleStart: Int64, tempo: Tempo, meter: Meter) -> TransportAnchor?? {
    defer { firstTick = nil }
    guard isRunning else {
      let reading = TransportReading(isRolling: false, frame: 0, barBeat: nil)
      return transport.follow(reading, atFrame: cycleStart, tempo: tempo, meter: meter)
    }
    // Until a tick comes, the clock's place is not known.
    guard let firstTick else { return nil }
    // Before a second tick there is no tempo to measure: the metronome's own stands in.
    let measured = measuredTempo ?? tempo.bpm
    let reading = TransportReading(
      quarters: Double(firstTick.place) / 24, tempo: measured, isRolling: true, meter: meter,
      sampleRate: transport.sampleRate)
    return transport.follow(reading, atFrame: firstTick.frame, tempo: tempo, meter: meter)
  }

  /// Quarter notes a minute over the ticks measured, to a tenth of a BPM so that a clock's
  /// wavering does not move the beats; nil before two ticks.
  private var measuredTempo: Double? {
    guard let first = tickFrames.first, let last = tickFrames.last, last > first else { return nil }
    let framesPerTick = Double(last - first) / Double(tickFrames.count - 1)
    return (60 * Double(transport.sampleRate.hz) / (24 * framesPerTick) * 10).rounded() / 10
  }
}
