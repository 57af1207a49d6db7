/* Records the MIDI clock sent to it on the ALSA sequencer, for the tests of metronome's
   --midi-clock (scripts/sequencer-vm builds and runs it): a client named "recorder" with one
   port, "in", printing "ready CLIENT:PORT" and then one line per message as it arrives, the
   monotonic time in microseconds and the message (clock, start, continue, stop, songpos N),
   until a stop arrives or, after SECONDS (default 30), nothing more can. */
#include <alsa/asoundlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long long monotonic_micros(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

int main(int argc, char **argv) {
  snd_seq_t *seq;
  if (snd_seq_open(&seq, "default", SND_SEQ_OPEN_INPUT, 0) < 0) {
    fprintf(stderr, "recorder: no ALSA sequencer\n");
    return 1;
  }
  snd_seq_set_client_name(seq, "recorder");
  int port = snd_seq_create_simple_port(seq, "in", SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE,
                                        SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION);
  if (port < 0) {
    fprintf(stderr, "recorder: no port: %s\n", snd_strerror(port));
    return 1;
  }
  alarm(argc > 1 ? (unsigned)atoi(argv[1]) : 30);
  printf("ready %d:%d\n", snd_seq_client_id(seq), port);
  fflush(stdout);
  for (;;) {
    snd_seq_event_t *event;
    if (snd_seq_event_input(seq, &event) < 0) continue;
    long long now = monotonic_micros();
    switch (event->type) {
    case SND_SEQ_EVENT_CLOCK: printf("%lld clock\n", now); break;
    case SND_SEQ_EVENT_START: printf("%lld start\n", now); break;
    case SND_SEQ_EVENT_CONTINUE: printf("%lld continue\n", now); break;
    case SND_SEQ_EVENT_SONGPOS: printf("%lld songpos %d\n", now, event->data.control.value); break;
    case SND_SEQ_EVENT_STOP:
      printf("%lld stop\n", now);
      return 0;
    default: continue;
    }
    fflush(stdout);
  }
}
