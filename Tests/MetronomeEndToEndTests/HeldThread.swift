import Foundation
import MetronomeTesting

/// One thread of a running process, found by what it is, and held still for a while.
///
/// ptrace stops one thread (a signal would stop them all): the process's other threads, and the
/// servers it plays into, go on as if that one thread had been starved.
struct HeldThread {
  /// The thread's id.
  let id: Int

  /// The thread of process `pid` that `matches` (given its name and whether it runs at SCHED_FIFO),
  /// once it exists (within 5 s).
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
        if matches(comm.trimmingCharacters(in: .whitespacesAndNewlines), isRealtime) {
          self.id = id
          return
        }
      }
      usleep(20_000)
    }
    throw FixtureError("no such thread in process \(pid)")
  }

  /// Stops the thread for `seconds`, then lets it go on; throws if ptrace would not.
  func hold(seconds: Double) throws {
    guard let python = ChildProcess.which("python3") else { throw FixtureError("no python3 to hold a thread with") }
    let hold = try ChildProcess.run(python, ["-c", Self.script, "\(id)", "\(seconds)"])
    guard hold.status == 0 else { throw FixtureError("could not hold thread \(id): \(hold.standardError)") }
  }

  /// `python3 -c SCRIPT TID SECONDS`: seizes the thread, stops it, sleeps, lets it go.
  private static let script = """
    import ctypes, os, sys, time
    libc = ctypes.CDLL(None, use_errno=True)
    tid = int(sys.argv[1])
    PTRACE_SEIZE, PTRACE_INTERRUPT, PTRACE_DETACH, WALL = 0x4206, 0x4207, 17, 0x40000000
    assert libc.ptrace(PTRACE_SEIZE, tid, 0, 0) == 0, os.strerror(ctypes.get_errno())
    assert libc.ptrace(PTRACE_INTERRUPT, tid, 0, 0) == 0, os.strerror(ctypes.get_errno())
    os.waitpid(tid, WALL)
    time.sleep(float(sys.argv[2]))
    assert libc.ptrace(PTRACE_DETACH, tid, 0, 0) == 0, os.strerror(ctypes.get_errno())
    """
}
