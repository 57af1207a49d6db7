import Foundation

extension SimulatedRoom {
  /// The same room's response as pyroomacoustics computes it: its first 0.35 s at `rate`.
  ///
  /// pyroomacoustics (MIT, from PyPI, which `scripts/setup` installs) is an image-method simulator
  /// no one here wrote, unlike ours in every way its authors chose differently (fractional delays,
  /// materials from a reverberation time); run in a python3 of its own, up to 20 reflections deep.
  public func pyroomacousticsResponse(rate: Int = RoomTake.sampleRate) throws -> ImpulseResponse {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-room-\(UUID()).f32")
    defer { try? FileManager.default.removeItem(at: file) }
    let python = Process()
    // The python3 on the PATH, as scripts/setup installed pyroomacoustics for.
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments =
      ["python3", "-c", Self.pyroomacousticsScript, file.path, String(rate), String(reverberation)]
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
  private static let pyroomacousticsScript = """
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
