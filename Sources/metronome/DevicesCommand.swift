import ALSAOutput
import ArgumentParser
import MetronomeRun

/// `metronome devices`: lists the ALSA playback devices.
struct DevicesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "devices", abstract: "List the ALSA playback devices (names for --device)."
  )

  func run() { Self.printDevices() }

  /// Prints one device per line, name then description; says so when there are none.
  static func printDevices() {
    let devices = ALSAPCM.devices(.playback)
    guard !devices.isEmpty else {
      report("no ALSA playback devices found (no sound card?); --silent plays without one")
      return
    }
    for device in devices { print("\(device.name)\t\(device.description)") }
  }
}
