// Holds one thread of another process for a while, as a busy machine may hold a real-time thread,
// while the process's other threads run on: unlike a stop of the whole process, a sound server's
// client thread inside it still takes the audio, so the thread held makes the stream run dry.
//   thread-stall THREAD-ID MILLISECONDS
// The thread is held with ptrace (seized and interrupted, which stops that thread alone), then let
// go; it is never signalled. Prints how long the thread was held, in milliseconds, from when the
// holder saw it stop to when it was let go. Exits 0 once let go, 1 with a line on standard error
// when it could not be held.
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: thread-stall THREAD-ID MILLISECONDS\n");
    return 64;
  }
  pid_t thread = (pid_t)atoi(argv[1]);
  long milliseconds = atol(argv[2]);
  // At real-time priority above the threads it holds, so that it lets go when asked: at the
  // normal priority, beside five busy loops, 13 ms holds lasted up to 24 ms (the holder woken
  // late), longer than the 21 ms buffer they were not to run dry; at 80, 13.0 to 13.1 ms in 28 of
  // 30, 16.9 at most. Where the system does not allow it, the hold lasts as the scheduler gives.
  struct sched_param realtime = {.sched_priority = 80};
  sched_setscheduler(0, SCHED_FIFO, &realtime);
  if (ptrace(PTRACE_SEIZE, thread, NULL, NULL) != 0 || ptrace(PTRACE_INTERRUPT, thread, NULL, NULL) != 0) {
    fprintf(stderr, "thread-stall: cannot hold thread %d: %s\n", thread, strerror(errno));
    return 1;
  }
  int status = 0;
  // __WALL: the thread is not the process's main thread.
  if (waitpid(thread, &status, __WALL) != thread) {
    fprintf(stderr, "thread-stall: thread %d did not stop: %s\n", thread, strerror(errno));
    return 1;
  }
  struct timespec stopped, released;
  clock_gettime(CLOCK_MONOTONIC, &stopped);
  struct timespec held = {milliseconds / 1000, (milliseconds % 1000) * 1000000L};
  while (nanosleep(&held, &held) != 0 && errno == EINTR) {}
  ptrace(PTRACE_DETACH, thread, NULL, NULL);
  clock_gettime(CLOCK_MONOTONIC, &released);
  printf("%.1f\n", (released.tv_sec - stopped.tv_sec) * 1e3 + (released.tv_nsec - stopped.tv_nsec) / 1e6);
  return 0;
}
