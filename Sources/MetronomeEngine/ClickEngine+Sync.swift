import MetronomeCore

extension ClickEngine {
  /// Has the view model follow an outside clock: before each period, the change `clock` calls
  /// for at the period's first frame, the metronome playing at a tempo in a meter.
  public func follow(_ clock: @escaping (_ cycleStart: Int64, Tempo, Meter) -> TransportAnchor??) {
    let viewModel = self.viewModel
    beforeEachPeriod { cycleStart in
      let state = viewModel.currentState
      if let change = clock(cycleStart, state.tempo, state.meter) { viewModel.actions.send(.follow(change)) }
    }
  }

  /// Sends MIDI clock for the beats of each period rendered through `send` (with the period's
  /// first frame), and Stop on the run's last frame.
  public func sendMIDIClock(
    _ send: @escaping (_ periodStart: Int64, _ frame: Int64, _ message: MIDIClock.Message) -> Void
  ) {
    var clock = MIDIClock(sampleRate: settings.sampleRate)
    let viewModel = self.viewModel
    afterEachPeriod = { [unowned self] start, frames in
      clock.messages(
        from: start, frames: frames, beats: renderer.beatsInLastPeriod, isPlaying: viewModel.currentState.isPlaying,
        endsRun: isFinished
      ) { frame, message in send(start, frame, message) }
    }
  }
}
