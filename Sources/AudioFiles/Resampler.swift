import CSamplerate
import MetronomeCore

/// Converts sounds between sample rates with libsamplerate's best band-limited converter.
///
/// This file is the only place metronome calls libsamplerate.
enum Resampler {
  /// Why a conversion failed, in libsamplerate's words.
  struct Failure: Error {
    let message: String
  }

  /// `samples` (mono, at `rate` Hz) at `target` Hz; unchanged when the rates are equal.
  static func convert(_ samples: [Float], from rate: Int, to target: Int) throws(Failure) -> [Float] {
    guard rate != target else { return samples }
    let ratio = Double(target) / Double(rate)
    var output = [Float](repeating: 0, count: Int((Double(samples.count) * ratio).rounded(.up)) + 16)
    var produced = 0
    let code = samples.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { converted in
        var data = SRC_DATA()
        data.data_in = input.baseAddress
        data.input_frames = Int(samples.count)
        data.data_out = converted.baseAddress
        data.output_frames = Int(converted.count)
        data.src_ratio = ratio
        data.end_of_input = 1
        let code = src_simple(&data, Int32(SRC_SINC_BEST_QUALITY), 1)
        produced = Int(data.output_frames_gen)
        return code
      }
    }
    guard code == 0 else { throw Failure(message: String(cString: src_strerror(code))) }
    return Array(output.prefix(produced))
  }
}
