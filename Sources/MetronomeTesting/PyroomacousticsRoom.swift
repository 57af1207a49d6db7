import Foundation

/// A shoebox room simulated by pyroomacoustics (MIT, from PyPI, which `scripts/setup` installs):
/// an image-method simulator no one here wrote, for rooms unlike `SimulatedRoom`'s in every way
/// its authors chose differently (fractional delays, materials from a reverberation time).
public struct PyroomacousticsRoom: Sendable, CustomStringConvertible {
  /// The room's width, depth and height, in metres.
  public let size: (Double, Double, Double)
  /// Seconds for its sound to die away by 60 dB.
  public let reverberation: Double
  /// Where the speaker is, in metres from a corner.
  public let speaker: (Double, Double, Double)
  /// Where the microphone is, in metres from the same corner.
  public let microphone: (Double, Double, Double)

  /// A room as given.
  public init(
    size: (Double, Double, Double), reverberation: Double, speaker: (Double, Double, Double),
    microphone: (Double, Double, Double)
  ) {
    self.size = size
    self.reverberation = reverberation
    self.speaker = speaker
    self.microphone = microphone
  }

  /// The room as a test's argument is named: its size and reverberation.
  public var description: String {
    "\(size.0)×\(size.1)×\(size.2) m, RT60 \(reverberation) s"
  }

  /// The response from the speaker to the microphone, its first 0.35 s at `rate`, as
  /// pyroomacoustics computes it (up to 20 reflections deep), run in a python3 of its own.
  public func response(rate: Int = RoomTake.sampleRate) throws -> ImpulseResponse {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-room-\(UUID()).f32")
    defer { try? FileManager.default.removeItem(at: file) }
    let python = Process()
    // The python3 on the PATH, as scripts/setup installed pyroomacoustics for.
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments =
      ["python3", "-c", Self.script, file.path, String(rate), String(reverberation)]
      + [size.0, size.1, size.2, speaker.0, speaker.1, speaker.2, microphone.0, microphone.1, microphone.2].map {
        String($0)
      }
    try python.run()
    python.waitUntilExit()
    guard python.terminationStatus == 0 else {
      throw PyroomacousticsError(description: "python3 with pyroomacoustics exited \(python.terminationStatus)")
    }
    let samples = try Data(contentsOf: file).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    return ImpulseResponse(samples: samples, rate: rate)
  }

  /// Writes the response as 32-bit floats to the file its first argument names.
  private static let script = """
    import sys, numpy as np, pyroomacoustics as pra
    path, rate, rt60 = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    size, speaker, microphone = ([float(x) for x in sys.argv[i:i + 3]] for i in (4, 7, 10))
    absorption, order = pra.inverse_sabine(rt60, size)
    room = pra.ShoeBox(size, fs=rate, materials=pra.Material(absorption), max_order=min(order, 20))
    room.add_source(speaker)
    room.add_microphone(microphone)
    room.compute_rir()
    np.asarray(room.rir[0][0][: int(0.35 * rate)], dtype=np.float32).tofile(path)
    """
}

/// pyroomacoustics could not be run.
public struct PyroomacousticsError: Error, CustomStringConvertible {
  /// What went wrong.
  public let description: String
}
