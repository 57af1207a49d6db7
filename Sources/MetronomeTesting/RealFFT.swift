import CKissFFT
import Glibc

/// The discrete Fourier transform of real signals of one even length, forward and back, with
/// kissfft's real transform.
///
/// This file is the only place metronome calls kissfft: the test kit convolves simulated rooms
/// with it. A spectrum is `length / 2 + 1` complex
/// bins stored as interleaved floats (real, imaginary), the layout of kissfft's `kiss_fft_cpx`.
/// The inverse is not scaled: forward then inverse multiplies by `length`.
///
/// `@unchecked Sendable`: a transform keeps scratch state, so one thread uses it at a time.
public final class RealFFT: @unchecked Sendable {
  /// The number of real samples transformed.
  public let length: Int
  private let forwardPlan: kiss_fftr_cfg
  private let inversePlan: kiss_fftr_cfg

  /// A transform of `length` samples (even; kissfft is fastest where it has small prime factors).
  public init(length: Int) {
    precondition(length > 0 && length.isMultiple(of: 2), "a real FFT's length must be even")
    self.length = length
    forwardPlan = kiss_fftr_alloc(Int32(length), 0, nil, nil)
    inversePlan = kiss_fftr_alloc(Int32(length), 1, nil, nil)
  }

  deinit {
    free(UnsafeMutableRawPointer(forwardPlan))
    free(UnsafeMutableRawPointer(inversePlan))
  }

  /// The number of floats a spectrum takes: two for each of `length / 2 + 1` bins.
  public var spectrumFloats: Int { length + 2 }

  /// Writes the spectrum of `samples` (`length` of them) into `spectrum` (`spectrumFloats`).
  public func forward(_ samples: UnsafePointer<Float>, into spectrum: UnsafeMutablePointer<Float>) {
    spectrum.withMemoryRebound(to: kiss_fft_cpx.self, capacity: length / 2 + 1) { bins in
      kiss_fftr(forwardPlan, samples, bins)
    }
  }

  /// Writes the signal whose spectrum is `spectrum` into `samples`, times `length`.
  public func inverse(_ spectrum: UnsafePointer<Float>, into samples: UnsafeMutablePointer<Float>) {
    spectrum.withMemoryRebound(to: kiss_fft_cpx.self, capacity: length / 2 + 1) { bins in
      kiss_fftri(inversePlan, bins, samples)
    }
  }
}
