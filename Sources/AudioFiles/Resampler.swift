import CSamplerate
import MetronomeCore

/// Converts sounds between sample rates with libsamplerate's band-limited converters: its best,
/// or its medium one where a third of the time matters more than the top of the band.
///
/// This file is the only place metronome calls libsamplerate.
public enum Resampler {
  /// Why a conversion failed, in libsamplerate's words.
  public struct Failure: Error {
    /// libsamplerate's own words for what went wrong.
    public let message: String
  }

  /// How closely a conversion keeps the band: libsamplerate's best converter (97 dB, 97 % of the
  /// band), or its medium one (97 dB, 90 %), some three times as fast.
  public enum Quality: Sendable {
    /// SRC_SINC_BEST_QUALITY.
    case best
    /// SRC_SINC_MEDIUM_QUALITY.
    case medium
  }

  /// `samples` (mono, at `rate` Hz) at `target` Hz; unchanged when the rates are equal.
  public static func convert(_ samples: [Float], from rate: Int, to target: Int, quality: Quality = .best)
    throws(Failure) -> [Float]
  {
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
        let converter = quality == .best ? SRC_SINC_BEST_QUALITY : SRC_SINC_MEDIUM_QUALITY
        let code = src_simple(&data, Int32(converter), 1)
        produced = Int(data.output_frames_gen)
        return code
      }
    }
    guard code == 0 else { throw Failure(message: String(cString: src_strerror(code))) }
    return Array(output.prefix(produced))
  }
}
