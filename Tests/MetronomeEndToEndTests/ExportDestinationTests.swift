import Foundation
import MetronomeTesting
import Testing

/// Where `metronome export` writes, tried on twins of the machine's special files made in a
/// folder of the test's own (never on the machine's own /dev).
@Suite(.timeLimit(.minutes(1)))
struct ExportDestinationTests {
  /// A folder of the test's own, removed when it ends.
  final class Folder {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("metronome-export-\(UUID())").path

    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }

    func entries() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }

    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  /// A twin of the character device `major:minor` (/dev/null is 1:3, /dev/full 1:7) named `name`
  /// in `folder`; its path.
  private func deviceTwin(_ name: String, major: UInt64, minor: UInt64, in folder: Folder) throws -> String {
    let path = folder.path + "/" + name
    // Glibc's `makedev`, a macro Swift cannot see.
    let device = dev_t((major & 0xFFF) << 8 | (minor & 0xFF) | (minor & ~0xFF) << 12 | (major & ~0xFFF) << 32)
    try #require(mknod(path, S_IFCHR | 0o666, device) == 0, "mknod needs root, as scripts/test runs")
    return path
  }

  private func fileType(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
  }

  /// Two bars of 4/4 at 120: 192 000 frames of 16-bit samples after a 44-byte header.
  private func expectTwoBarsOfWAV(_ data: Data) throws {
    let wav = try WAVFile(data: data)
    #expect(wav.samples.count == 192_000)
    #expect(wav.declaredDataBytes == 384_000)
    #expect(wav.declaredRIFFBytes == 384_036)
    #expect(wav.fileBytes == 384_044)
    #expect(Onset.detect(in: wav.samples, sampleRate: 48_000).map(\.frame) == (0..<8).map { $0 * 24_000 })
  }

  @Test func aDeviceIsWrittenInPlaceAndNeverReplaced() throws {
    let folder = try Folder()
    let null = try deviceTwin("null", major: 1, minor: 3, in: folder)
    let run = try MetronomeProcess.run(["export", "--bars", "2", "-o", null])

    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError == "metronome: wrote \(null): 192000 frames, 4 s\n")
    #expect(fileType(null) == S_IFCHR)
    #expect(try folder.entries() == ["null"])
  }

  @Test func aFullDeviceIsAnErrorAndStaysADevice() throws {
    let folder = try Folder()
    let full = try deviceTwin("full", major: 1, minor: 7, in: folder)
    let run = try MetronomeProcess.run(["export", "--bars", "2", "-o", full])

    #expect(run.status == 1)
    #expect(
      run.standardError
        == "Error: cannot write '\(full)': No space left on device; choose a writable path with --output\n")
    #expect(fileType(full) == S_IFCHR)
    #expect(try folder.entries() == ["full"])
  }

  @Test func aFIFOIsWrittenInPlaceAndItsReaderGetsAWholeWAVFile() async throws {
    let folder = try Folder()
    let fifo = folder.path + "/fifo"
    try #require(mkfifo(fifo, 0o666) == 0)
    // Opening a FIFO waits for the other end: read it on another thread while the export writes.
    let reading = Task.detached {
      try FileHandle(forReadingFrom: URL(fileURLWithPath: fifo)).readToEnd() ?? Data()
    }
    let run = try MetronomeProcess.run(["export", "--bars", "2", "-o", fifo])
    let received = try await reading.value

    #expect(run.status == 0, "\(run.standardError)")
    try expectTwoBarsOfWAV(received)
    #expect(fileType(fifo) == S_IFIFO)
  }

  @Test func aSymbolicLinkIsFollowedItsTargetWrittenAndTheLinkKept() throws {
    let folder = try Folder()
    let target = folder.path + "/take.wav"
    try Data("an older take".utf8).write(to: URL(fileURLWithPath: target))
    try #require(symlink("take.wav", folder.path + "/link.wav") == 0)
    let run = try MetronomeProcess.run(["export", "--bars", "2", "-o", folder.path + "/link.wav"])

    #expect(run.status == 0, "\(run.standardError)")
    #expect(fileType(folder.path + "/link.wav") == S_IFLNK)
    try expectTwoBarsOfWAV(try Data(contentsOf: URL(fileURLWithPath: target)))
    #expect(try folder.entries() == ["link.wav", "take.wav"])
  }

  @Test func aDanglingLinkCreatesItsTarget() throws {
    let folder = try Folder()
    try #require(symlink("new.wav", folder.path + "/link.wav") == 0)
    let run = try MetronomeProcess.run(["export", "--bars", "2", "-o", folder.path + "/link.wav"])

    #expect(run.status == 0, "\(run.standardError)")
    try expectTwoBarsOfWAV(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/new.wav")))
    #expect(fileType(folder.path + "/link.wav") == S_IFLNK)
  }

  @Test func dashStreamsAWholeWAVFileToStandardOutput() throws {
    let run = try BackgroundRun(["export", "--bars", "2", "-o", "-"])
    let received = run.finish().output

    #expect(run.process.terminationStatus == 0)
    try expectTwoBarsOfWAV(received)
  }

  @Test func aDirectoryIsAnErrorAndStaysAsItWas() throws {
    let folder = try Folder()
    let run = try MetronomeProcess.run(["export", "--bars", "2", "-o", folder.path])

    #expect(run.status == 1)
    #expect(
      run.standardError
        == "Error: '\(folder.path)' is a directory: name a file in it, such as --output \(folder.path)/click.wav\n")
    #expect(try folder.entries() == [])
  }

  /// A filesystem of 256 KiB (a tmpfs the test mounts) cannot hold 100 bars: the export fails
  /// with the system's reason and the file that was there stays exactly as it was.
  @Test func aFullFilesystemLeavesThePreviousFileUntouched() throws {
    let folder = try Folder()
    let mount = try ChildProcess.run(
      URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=256k", "tmpfs", folder.path])
    try #require(mount.status == 0, "mounting a tmpfs needs root, as scripts/test runs: \(mount.standardError)")
    defer { _ = try? ChildProcess.run(URL(fileURLWithPath: "/bin/umount"), [folder.path]) }
    let previous = Data("the previous take".utf8)
    let file = folder.path + "/click.wav"
    try previous.write(to: URL(fileURLWithPath: file))
    let run = try MetronomeProcess.run(["export", "--bars", "100", "-o", file])

    #expect(run.status == 1)
    #expect(
      run.standardError
        == "Error: cannot write '\(file)': No space left on device; choose a writable path with --output\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == previous)
    #expect(try folder.entries() == ["click.wav"])
  }

  /// Ctrl-C in the middle of a long export: status 130, one line, and nothing left behind.
  @Test func anInterruptedExportLeavesNothingBehind() throws {
    let folder = try Folder()
    let run = try BackgroundRun(["export", "--duration", "20000", "-o", folder.path + "/long.wav"])
    // Interrupt once the hidden file has begun.
    for _ in 0..<500 where try folder.entries().isEmpty { usleep(10_000) }
    run.process.interrupt()
    let message = run.finish().errors

    #expect(run.process.terminationStatus == 130)
    #expect(message == "metronome: export interrupted; no file was written\n")
    #expect(try folder.entries() == [])
  }
}
