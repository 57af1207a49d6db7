import MetronomeAudio
import MetronomeTesting
import Testing

/// A device at 48 kHz whose position moves in cycles of 256 frames, read at uneven times.
private struct SimulatedDevice {
  var generator = SeededGenerator(seed: 7)
  var detector = GlitchDetector(sampleRate: 48_000, cycleFrames: 256)
  /// Frames of the stream the device has played: whole cycles only.
  var heard: Int64 = 0
  /// Device time in frames, which the stream follows unless a glitch says otherwise.
  var deviceFrames: Double = 0
  /// How many of the device's frames passed without the stream.
  var behind: Int64 = 0
  /// Parts per million by which the device's clock runs fast of the system's.
  var drift: Double = 0

  /// Plays on for `frames`, then reads the position (late by `lateness` frames) and returns what
  /// the detector says was lost.
  mutating func play(_ frames: Double, readLateBy lateness: Double = 0) -> Int64 {
    deviceFrames += frames
    heard = Int64(deviceFrames) / 256 * 256 - behind
    let systemFrames = deviceFrames * (1 - drift / 1_000_000) + lateness
    return detector.lostFrames(
      at: PlaybackPosition(heardFrames: heard, nanoseconds: Int64(systemFrames / 48_000 * 1e9)))
  }

  /// Reads every 5 to 11 ms for `seconds`, and sums what the detector found.
  mutating func playSteadily(seconds: Double) -> Int64 {
    var lost: Int64 = 0
    var played = 0.0
    while played < seconds * 48_000 {
      let step = Double.random(in: 240...528, using: &generator)
      lost += play(step)
      played += step
    }
    return lost
  }
}

@Suite(.timeLimit(.minutes(1)))
struct GlitchDetectorTests {
  @Test func aSteadyDeviceLosesNothing() {
    var device = SimulatedDevice()
    #expect(device.playSteadily(seconds: 60) == 0)
  }

  @Test func clocksThatDriftApartLoseNothing() {
    var device = SimulatedDevice()
    device.drift = 200
    #expect(device.playSteadily(seconds: 600) == 0)
  }

  @Test func aPositionReadLateOnceIsNotAGlitch() {
    var device = SimulatedDevice()
    _ = device.playSteadily(seconds: 1)
    #expect(device.play(300, readLateBy: 960) == 0)
    #expect(device.playSteadily(seconds: 1) == 0)
  }

  /// The process stopped for 300 ms while the server played 56 cycles without it.
  @Test func aStopIsFoundOnceInWholeCycles() {
    var device = SimulatedDevice()
    _ = device.playSteadily(seconds: 2)
    device.behind = 56 * 256
    var found = [device.play(56 * 256)]
    for _ in 0..<3 { found.append(device.play(256)) }
    found.append(device.playSteadily(seconds: 2))
    #expect(found.filter { $0 != 0 } == [14_336])
  }

  /// A server that dropped 3 cycles of the stream put it ahead by that much.
  @Test func droppedFramesAreFoundAsTheStreamGettingAhead() {
    var device = SimulatedDevice()
    _ = device.playSteadily(seconds: 2)
    device.behind = -768
    var found: [Int64] = []
    for _ in 0..<3 { found.append(device.play(256)) }
    found.append(device.playSteadily(seconds: 2))
    #expect(found.filter { $0 != 0 } == [-768])
  }

  @Test func nothingCountsBeforeTheDeviceHasPlayed() {
    var detector = GlitchDetector(sampleRate: 48_000, cycleFrames: 256)
    #expect(detector.lostFrames(at: PlaybackPosition(heardFrames: 0, nanoseconds: 0)) == 0)
    #expect(detector.lostFrames(at: PlaybackPosition(heardFrames: 0, nanoseconds: 1_000_000_000)) == 0)
    #expect(detector.lostFrames(at: PlaybackPosition(heardFrames: 0, nanoseconds: 2_000_000_000)) == 0)
  }
}
