import Foundation
import MetronomeTesting

/// One thread of a running process, found by what it is, and held still for a while.
///
/// `scripts/thread-stall.c` stops that thread alone with ptrace (a signal would stop them all):
/// the process's other threads, and the servers it plays into, go on as if that one thread had
/// been starved. Compiled, it starts in a millisecond (2 at most beside two busy loops), where
/// python3 took 58 to 109 ms, so a hold comes where it was asked for (MEASUREMENTS).
struct HeldThread {
  /// The thread's id.
  let id: Int

  /// Whether a thread is the one JACK runs a client's cycles on: at real-time priority, and not
  /// the main thread, which shows the beats at a lower real-time priority.
  static func runsJACKCycles(name: String, isRealtime: Bool) -> Bool { isRealtime && name != "main" }

  /// The thread of process `pid` that `matches` (given its name, "main" for the main thread, and
  /// whether it runs at SCHED_FIFO), once it exists (within 5 s).
  init(in pid: Int32, where matches: (_ name: String, _ isRealtime: Bool) -> Bool) throws {
    for _ in 0..<250 {
      let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
      for task in tasks {
        guard let id = Int(task),
          let comm = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8),
          let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
          let end = stat.lastIndex(of: ")")
        else { continue }
        // After the name in parentheses come the fields from the third; the policy is the 41st.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        let isRealtime = fields.count > 38 && fields[38] == "1"
        let name = task == "\(pid)" ? "main" : comm.trimmingCharacters(in: .whitespacesAndNewlines)
        if matches(name, isRealtime) {
          self.id = id
          return
        }
      }
      usleep(20_000)
    }
    throw FixtureError("no such thread in process \(pid)")
  }

  /// The holder, `scripts/thread-stall.c` built into `folder`: built before a hold must come, so
  /// that none waits for a compiler.
  static func holder(in folder: URL) throws -> URL { try HitPlayer.build("thread-stall", in: folder) }

  /// Stops the thread for `milliseconds` with `holder`, then lets it go on; throws if it could not
  /// be held.
  @discardableResult
  func hold(milliseconds: Int, with holder: URL) throws -> Hold {
    let hold = try ChildProcess.run(holder, ["\(id)", "\(milliseconds)"])
    guard hold.status == 0, let held = Double(hold.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw FixtureError("could not hold thread \(id): \(hold.standardError)") }
    return Hold(asked: milliseconds, lasted: held)
  }

  /// How long a hold was asked for and how long it lasted, as the holder measured it.
  struct Hold {
    /// The hold asked for, in milliseconds.
    let asked: Int
    /// How long the thread was held, in milliseconds.
    let lasted: Double

    /// "a 13 ms hold lasted 16.9 ms", where it lasted more than 2 ms longer than asked: the
    /// harness's trouble, since a hold let go late may run a buffer dry where it was not to.
    /// (At real-time priority beside five busy loops, 28 of 30 holds of 13 ms lasted at most
    /// 13.1 ms, the longest 16.9: MEASUREMENTS.)
    var overran: [String] { lasted > Double(asked) + 2 ? ["a \(asked) ms hold lasted \(lasted) ms"] : [] }
  }
}
