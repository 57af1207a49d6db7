import Foundation

/// Runs a program to completion and collects what it printed.
struct ProcessResult {
  let status: Int32
  let standardOutput: String
  let standardError: String
}

enum MetronomeProcess {
  /// The `metronome` binary built beside this test bundle.
  static var binary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("metronome")
  }

  /// Runs `metronome` with `arguments`; `input` becomes standard input (closed at once when nil).
  static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
    try ChildProcess.run(binary, arguments, input: input, environment: environment)
  }
}

enum ChildProcess {
  /// Runs `executable` and waits for it; standard output and error are read while it runs.
  static func run(_ executable: URL, _ arguments: [String], input: String? = nil, environment: [String: String] = [:])
    throws -> ProcessResult
  {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    let error = Pipe()
    let standardInput = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = standardInput
    try process.run()
    standardInput.fileHandleForWriting.write(Data((input ?? "").utf8))
    try standardInput.fileHandleForWriting.close()
    let errorData = ThreadSafeData()
    let readingError = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
    readingError.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(
      status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData.wait(), as: UTF8.self)
    )
  }

  /// The path of a program on PATH, or nil.
  static func which(_ name: String) -> URL? {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }
}

/// Data filled in by one thread and awaited by another.
final class ThreadSafeData: @unchecked Sendable {
  private let condition = NSCondition()
  private var data: Data?

  func set(_ value: Data) {
    condition.withLock {
      data = value
      condition.broadcast()
    }
  }

  func wait() -> Data {
    condition.withLock {
      while data == nil { condition.wait() }
      return data!
    }
  }
}
