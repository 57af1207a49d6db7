import MetronomeCore

/// The bar, beat and tempo the metronome publishes as a transport's timebase master: its beats
/// counted from the transport's frame 0 at its tempo and meter, the very beats a follower without
/// a master plays (see `TransportFollower`).
public enum TimebaseMaster {
  /// The position at the transport's `frame`, at `tempo` in `meter`, frames counted at `sampleRate`.
  public static func position(atFrame frame: Int64, tempo: Tempo, meter: Meter, sampleRate: SampleRate)
    -> TransportReading.BarBeat
  {
    let spacing = BeatGrid(anchorFrame: 0, tempo: tempo, denominator: meter.denominator, sampleRate: sampleRate)
    let beats = Double(max(frame, 0)) / spacing.framesPerBeat
    let index = Int(beats)
    return TransportReading.BarBeat(
      bar: index / meter.numerator + 1, beat: index % meter.numerator + 1, fraction: beats - Double(index),
      resolution: 1.0 / 1_920,
      // JACK counts beats of the meter's note value; the metronome, quarter notes.
      beatsPerMinute: tempo.bpm * Double(meter.denominator) / 4, meter: meter)
  }
}
