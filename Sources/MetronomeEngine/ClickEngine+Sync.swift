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

  /// Sends MIDI for the beats of each period rendered, through `send`, in the order of their frames.
  ///
  /// `send` is given the period's first frame with each message: MIDI clock if `clock` is set,
  /// with Stop on the run's last frame, and a note for each click after `notes`, if given. At the
  /// same frame the clock's messages come first, so that Start precedes bar one's note.
  public func sendMIDI(
    clock sendsClock: Bool, notes map: MIDINoteMap?,
    _ send: @escaping (_ periodStart: Int64, _ frame: Int64, _ message: MIDIMessage) -> Void
  ) {
    var clock = sendsClock ? MIDIClock(sampleRate: settings.sampleRate) : nil
    var notes = map.map { MIDINotes(map: $0, sampleRate: settings.sampleRate) }
    // Kept between periods so that ordering them allocates nothing on the render thread.
    var outgoing: [(frame: Int64, message: MIDIMessage)] = []
    outgoing.reserveCapacity(1_024)
    let viewModel = self.viewModel
    afterEachPeriod = { [unowned self] start, frames in
      outgoing.removeAll(keepingCapacity: true)
      let beats = renderer.beatsInLastPeriod
      clock?.messages(
        from: start, frames: frames, beats: beats, isPlaying: viewModel.currentState.isPlaying, endsRun: isFinished
      ) { outgoing.append(($0, .clock($1))) }
      let clockCount = outgoing.count
      notes?.messages(from: start, frames: frames, beats: beats, endsRun: isFinished) {
        outgoing.append(($0, .note($1)))
      }
      // Each list is in frame order: the notes are put among the clock's, after those of their frame.
      for index in clockCount..<outgoing.count {
        var place = index
        while place > 0, outgoing[place - 1].frame > outgoing[place].frame {
          outgoing.swapAt(place - 1, place)
          place -= 1
        }
      }
      for (frame, message) in outgoing { send(start, frame, message) }
    }
  }
}
