/// A module the mutation tester plants mutants in, and the unit tests that must notice them.
struct ModuleUnderTest: Sendable {
  /// The module's folder under `Sources`.
  let name: String
  /// Its test target: the unit tests run against each mutant (never the end-to-end ones).
  let tests: String
  /// The files mutated, by name; nil for all of them.
  let files: Set<String>?

  /// The pure modules: what runs without a device, a server or a network, each with its own tests.
  static let pure: [ModuleUnderTest] = [
    ModuleUnderTest(name: "MetronomeCore", tests: "MetronomeCoreTests", files: nil),
    ModuleUnderTest(name: "MetronomeControl", tests: "MetronomeControlTests", files: nil),
    ModuleUnderTest(name: "MetronomeViewModel", tests: "MetronomeViewModelTests", files: nil),
    ModuleUnderTest(name: "PracticeListening", tests: "PracticeListeningTests", files: nil),
    // The journal's rules and what is read from it; the SQLite wrapper too, through real files.
    ModuleUnderTest(name: "PracticeJournal", tests: "PracticeJournalTests", files: nil),
    ModuleUnderTest(name: "AudioListening", tests: "AudioListeningTests", files: nil),
    // All but the socket, which only the end-to-end tests reach.
    ModuleUnderTest(
      name: "OSCControl", tests: "OSCControlTests",
      files: [
        "ClickSounds.swift", "KlickNamespace.swift", "KlickRequest.swift", "KlickState.swift",
        "MetronomeNamespace.swift",
        "OSCArgument.swift", "OSCCodec.swift", "OSCEndpoint.swift", "OSCMessage.swift", "OSCRemoteControl.swift",
        "OSCReply.swift", "OutputConnections.swift",
      ]),
    // The run's request rules: what the command line's options mean together.
    ModuleUnderTest(
      name: "MetronomeRun", tests: "MetronomeRunTests",
      files: [
        "ClickSoundChange.swift", "ExportRequest.swift", "KlickCommandLine.swift", "ListenRequest.swift",
        "MeterAndTempo.swift", "MusicRequest.swift", "MusicRequest+Files.swift", "PlayRequest.swift",
        "ProgrammeRequest.swift", "RemoteRequest.swift", "MIDIRequest.swift", "CalibrateRequest.swift",
        "JournalKeeping.swift", "JournalRequest.swift", "ALSABuffer.swift", "CaptureClock.swift",
      ]),
    // The MIDI the engine sends and follows, timed to the frame: arithmetic on frames and bytes;
    // and where the renderer lays each click and word.
    ModuleUnderTest(
      name: "MetronomeEngine", tests: "MetronomeEngineTests",
      files: [
        "MIDIClock.swift", "MIDIClockFollower.swift", "MIDINotes.swift", "MIDIMessage.swift",
        "HeardMIDIMessages.swift", "HeardTime.swift", "ClickRenderer.swift",
      ]),
    // Frames and times, the samples' encodings, and what a glitch cost, from a device's positions.
    ModuleUnderTest(
      name: "MetronomeAudio", tests: "MetronomeAudioTests",
      files: ["AudioTime.swift", "GlitchDetector.swift", "RenderedPeriod.swift", "SampleEncoding.swift"]),
    // What the displays draw and say: pure functions of the display's state, and the flash's limit.
    ModuleUnderTest(
      name: "TerminalUI", tests: "TerminalUITests",
      files: [
        "BeatCells.swift", "BigDigits.swift", "ScreenRenderer+Big.swift", "PlainNarration.swift",
        "ScreenFlashes.swift", "ScreenRenderer.swift", "ScreenWriter.swift",
      ]),
  ]

  /// The pure module named `name`; nil for another.
  static func named(_ name: String) -> ModuleUnderTest? { pure.first { $0.name == name } }
}
