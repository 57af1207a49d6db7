// swift-tools-version: 6.1
import PackageDescription

/// The targets the render thread runs through, built for release without run-time exclusivity checks.
///
/// Each access to a class's stored property costs a call into the runtime, about a third of
/// rendering a dense period. The compile-time checks stay, and debug builds, which the tests run,
/// keep the run-time ones.
let renderPath: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

/// The listener's signal processing and the test kit's simulated rooms, optimised in debug builds
/// too: the tests run them over minutes of audio, several times slower unoptimised.
let signalWork: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
  name: "metronome",
  products: [
    .executable(name: "metronome", targets: ["metronome"]),
    .library(name: "MetronomeTesting", targets: ["MetronomeTesting"]),
  ],
  // Ableton Link is GPL-2.0-or-later: a binary built with it must be shipped under the GPL. Off
  // by default, so that the default build holds no GPL code.
  traits: [
    .trait(
      name: "AbletonLink",
      description: "Join Ableton Link sessions (--link); the binary then falls under the GPL (needs ableton-link-dev)")
  ],
  dependencies: [
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    // Leave the traits at their defaults: on Linux they enable OpenCombineSchedulers, and an
    // explicit list (even `[]`) silently compiles CombineSchedulers to an empty module.
    .package(url: "https://github.com/pointfreeco/combine-schedulers", exact: "1.2.2"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", exact: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", exact: "1.13.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    // Tests only: rules that hold over a range (any seed, any tolerance) checked over many values.
    .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
  ],
  targets: [
    .target(name: "MetronomeCore", swiftSettings: renderPath),
    .target(
      name: "MetronomeAudio",
      dependencies: ["MetronomeCore", .product(name: "OpenCombine", package: "OpenCombine")],
      swiftSettings: renderPath
    ),
    // The state machine's values and the one door into a session: what a control (keys, OSC, a
    // script) reads and asks for, without the view model or the session that carry it out.
    .target(name: "MetronomeControl", dependencies: ["MetronomeCore", "TerminalUI", "PracticeListening"]),
    .target(
      name: "MetronomeViewModel",
      dependencies: [
        "MetronomeCore",
        "MetronomeAudio",
        "MetronomeControl",
        // OpenCombine alone: combine-schedulers and OpenCombineShim would link Foundation and
        // libcurl into the binary, doubling its resident memory. Tests still use both.
        .product(name: "OpenCombine", package: "OpenCombine"),
      ],
      swiftSettings: renderPath
    ),
    .target(
      name: "MetronomeEngine",
      dependencies: [
        "MetronomeCore",
        "MetronomeAudio",
        "MetronomeViewModel",
        .product(name: "OpenCombine", package: "OpenCombine"),
      ],
      swiftSettings: renderPath
    ),
    .systemLibrary(
      name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]
    ),
    .target(
      name: "ALSAOutput", dependencies: ["CALSA", "MetronomeCore", "MetronomeAudio"], swiftSettings: renderPath),
    .systemLibrary(name: "CJACK", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),
    .target(
      name: "JACKOutput", dependencies: ["CJACK", "MetronomeCore", "MetronomeAudio"], swiftSettings: renderPath),
    .target(
      name: "CLink",
      // Empty without the trait: no Link header is read and no GPL code is compiled.
      cxxSettings: [
        .define("LINK_PLATFORM_LINUX", to: "1"), .define("METRONOME_ABLETON_LINK", .when(traits: ["AbletonLink"])),
      ],
      linkerSettings: [.linkedLibrary("atomic"), .linkedLibrary("pthread"), .linkedLibrary("m")]
    ),
    .target(name: "LinkSync", dependencies: ["CLink", "MetronomeCore", "MetronomeEngine"]),
    .systemLibrary(
      name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]
    ),
    .systemLibrary(
      name: "CSamplerate", pkgConfig: "samplerate", providers: [.apt(["libsamplerate0-dev"])]
    ),
    .target(
      name: "AudioFiles",
      dependencies: ["CSndfile", "CSamplerate", "MetronomeCore", "MetronomeAudio", "MetronomeEngine"]
    ),
    // flite has no pkg-config file: the module map links its voice, its language and lexicon.
    .systemLibrary(name: "CFlite", providers: [.apt(["flite1-dev"])]),
    .target(name: "SpokenWords", dependencies: ["CFlite", "AudioFiles", "MetronomeCore"]),
    .target(name: "TerminalUI", dependencies: ["MetronomeCore"]),
    .target(name: "PracticeListening", dependencies: ["MetronomeCore"]),
    // SQLite (public domain), wrapped once in SQLiteDatabase: the practice journal's file.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .target(name: "PracticeJournal", dependencies: ["CSQLite", "MetronomeCore", "PracticeListening"]),
    .target(name: "AudioListening", dependencies: ["MetronomeCore"], swiftSettings: renderPath + signalWork),
    .target(
      name: "MetronomeSession",
      dependencies: [
        "MetronomeCore",
        "MetronomeAudio",
        "MetronomeControl",
        "MetronomeViewModel",
        "MetronomeEngine",
        "TerminalUI",
        "PracticeListening",
        .product(name: "OpenCombine", package: "OpenCombine"),
      ]
    ),
    .systemLibrary(name: "CLiblo", pkgConfig: "liblo", providers: [.apt(["liblo-dev"])]),
    .target(
      name: "OSCControl",
      dependencies: ["CLiblo", "MetronomeCore", "MetronomeControl", "TerminalUI"]
    ),
    .target(
      name: "MetronomeRun",
      dependencies: [
        "MetronomeCore",
        "MetronomeAudio",
        "MetronomeEngine",
        "MetronomeControl",
        "MetronomeSession",
        "ALSAOutput",
        "JACKOutput",
        .target(name: "LinkSync", condition: .when(traits: ["AbletonLink"])),
        "AudioFiles",
        "SpokenWords",
        "TerminalUI",
        "OSCControl",
        "PracticeListening",
        "PracticeJournal",
        "AudioListening",
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // kissfft (BSD-3): the FFT the test kit hears simulated rooms through. No pkg-config: its file
    // defines the float type on the command line, which SwiftPM refuses; the header shim does.
    .systemLibrary(name: "CKissFFT", providers: [.apt(["libkissfft-dev"])]),
    .target(
      name: "MetronomeTesting",
      dependencies: [
        "AudioFiles",
        "AudioListening",
        "MetronomeCore",
        "MetronomeControl",
        "TerminalUI",
        "CKissFFT",
        "MetronomeAudio",
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineShim", package: "OpenCombine"),
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        // Routes reported issues into Swift Testing as well as XCTest for every user of the kit.
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
      ],
      swiftSettings: signalWork
    ),
    // Writes the commit being built into the executable (for --version), again whenever Git moves.
    .plugin(name: "BuildCommit", capability: .buildTool(), path: "Sources/BuildCommit"),
    .executableTarget(
      name: "metronome",
      dependencies: [
        "JACKOutput",
        "MetronomeCore",
        "MetronomeAudio",
        "MetronomeRun",
        "ALSAOutput",
        "TerminalUI",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      plugins: ["BuildCommit"]
    ),
    .executableTarget(
      name: "MetronomeBenchmark",
      dependencies: [
        "MetronomeCore",
        "PracticeJournal",
        "AudioListening",
        "MetronomeTesting",
        "MetronomeAudio",
        "MetronomeViewModel",
        "MetronomeEngine",
        .product(name: "OpenCombineShim", package: "OpenCombine"),
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
      ]
    ),
    .testTarget(
      name: "MetronomeCoreTests",
      dependencies: [
        "MetronomeCore", "MetronomeTesting", .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "MetronomeControlTests",
      dependencies: ["MetronomeControl", "MetronomeCore", "MetronomeTesting", "TerminalUI"]
    ),
    .testTarget(name: "MetronomeAudioTests", dependencies: ["MetronomeAudio", "MetronomeCore", "MetronomeTesting"]),
    .testTarget(
      name: "MetronomeViewModelTests",
      dependencies: [
        "MetronomeViewModel", "MetronomeControl", "MetronomeAudio", "MetronomeCore", "MetronomeTesting",
        .product(name: "OpenCombineShim", package: "OpenCombine"),
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
      ]
    ),
    .testTarget(
      name: "MetronomeEngineTests",
      dependencies: [
        "MetronomeEngine", "MetronomeAudio", "MetronomeCore", "MetronomeViewModel", "MetronomeTesting",
        .product(name: "OpenCombine", package: "OpenCombine"),
      ]
    ),
    .testTarget(
      name: "ALSAOutputTests",
      dependencies: ["ALSAOutput", "MetronomeAudio", "MetronomeCore", "MetronomeEngine", "MetronomeTesting"]
    ),
    .testTarget(
      name: "TerminalUITests",
      dependencies: ["TerminalUI", "MetronomeCore", .product(name: "PropertyBased", package: "swift-property-based")]
    ),
    .testTarget(
      name: "PracticeListeningTests",
      dependencies: [
        "PracticeListening", "MetronomeCore", "MetronomeTesting",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      // The report's picture as it was looked at, compared by ReportPictureTests.
      exclude: ["Reference"]
    ),
    .testTarget(
      name: "PracticeJournalTests",
      dependencies: ["PracticeJournal", "PracticeListening", "MetronomeCore", "MetronomeTesting"],
      // The trend's pictures as they were looked at, compared by TrendPictureTests.
      exclude: ["Reference"]
    ),
    .testTarget(name: "AudioFilesTests", dependencies: ["AudioFiles", "MetronomeCore", "MetronomeTesting"]),
    .testTarget(name: "AudioListeningTests", dependencies: ["AudioListening", "MetronomeCore", "MetronomeTesting"]),
    .testTarget(
      name: "OSCControlTests",
      dependencies: [
        "OSCControl", "MetronomeControl", "MetronomeCore", "MetronomeAudio", "MetronomeViewModel", "TerminalUI",
        "MetronomeTesting", .product(name: "PropertyBased", package: "swift-property-based"),
        .product(name: "OpenCombineShim", package: "OpenCombine"),
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
      ]
    ),
    .testTarget(
      name: "MetronomeSessionTests",
      dependencies: [
        "MetronomeSession", "MetronomeControl", "MetronomeEngine", "MetronomeAudio", "MetronomeCore",
        "MetronomeViewModel", "TerminalUI",
        "MetronomeTesting", "PracticeListening",
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
      ]
    ),
    .testTarget(
      name: "MetronomeRunTests",
      dependencies: [
        "MetronomeRun", "MetronomeCore", "MetronomeEngine", "MetronomeAudio", "MetronomeTesting", "OSCControl",
        "PracticeListening", "PracticeJournal", "AudioListening", "TerminalUI",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "MetronomeEndToEndTests",
      dependencies: [
        "metronome", "MetronomeTesting", "TerminalUI", "MetronomeCore", "AudioFiles", "OSCControl", "PracticeListening",
        "PracticeJournal", "MetronomeAudio", "MetronomeRun", "JACKOutput",
      ]
    ),
    .testTarget(
      name: "MetronomeTestingTests",
      dependencies: [
        "MetronomeTesting", "MetronomeControl", "TerminalUI", "AudioListening", "MetronomeCore",
        .product(name: "OpenCombineShim", package: "OpenCombine"),
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6],
  cxxLanguageStandard: .cxx17
)
