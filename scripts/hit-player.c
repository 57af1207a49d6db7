/* A drummer made of two JACK clients, for the listening tests and for trying --listen without a
   kit: "hit-ear" hears metronome's clicks on its input port (connected from CLICK_PORT) and
   "hit-hands" plays note-ons on its MIDI output port (connected to HITS_PORT) at frames chosen
   against those clicks, as a player who hears each click when it leaves the speakers would.

     hit-player CLICK_PORT HITS_PORT SPACING SECONDS < PLAN

   Each line of PLAN is "CLICK OFFSET NOTE VELOCITY": a note-on for the click numbered CLICK
   (0 is the second one heard, the first whose whole start was), OFFSET frames from when that click is heard (negative: early);
   the lines in the order the notes are to be played.
   Clicks are SPACING frames apart from the first (a steady tempo, which metronome plays to the
   frame). A click is heard at the frame time it was written plus CLICK_PORT's playback latency
   (the most JACK reports once the ports are connected), so a note with OFFSET 0 is on the click.
   Once every note of PLAN is played (or missed), or after SECONDS at most, it prints "latency L",
   "first F" (the first click's frame time as written), a line "sent CLICK OFFSET FRAMETIME" for
   each note and "missed N" for notes whose frame had passed before the first click was heard,
   then exits. Clicks: a sample of 0.05 or more after
   96 quieter frames. */
#include <jack/jack.h>
#include <jack/midiport.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MOST 10000
static jack_client_t *ear, *hands;
static jack_port_t *earInput, *handsOutput;
static struct Note { long click, offset; int note, velocity; jack_nframes_t sentAt; } notes[MOST];
static int noteCount;
static long spacing;
static atomic_long firstClick = -1;
/* Onsets heard so far: the first is not counted, since the port may have been connected inside a
   click, or inside a quiet stretch of one; the second follows a whole gap between clicks. */
static int onsets;
static atomic_long latency = -1;
static atomic_int sentCount, missedCount;
/* Quiet frames heard so far: none at first, so that a click already sounding when the port is
   connected is not taken for one starting there. */
static jack_nframes_t quiet = 0;

static int hear(jack_nframes_t frames, void *unused) {
  (void)unused;
  const float *samples = jack_port_get_buffer(earInput, frames);
  jack_nframes_t start = jack_last_frame_time(ear);
  for (jack_nframes_t i = 0; i < frames; i++) {
    if (samples[i] >= 0.05f || samples[i] <= -0.05f) {
      if (quiet >= 96 && ++onsets == 2) atomic_store(&firstClick, (long)(start + i));
      quiet = 0;
    } else if (quiet < 96) {
      quiet++;
    }
  }
  return 0;
}

static int play(jack_nframes_t frames, void *unused) {
  (void)unused;
  void *buffer = jack_port_get_buffer(handsOutput, frames);
  jack_midi_clear_buffer(buffer);
  long first = atomic_load(&firstClick), heardAfter = atomic_load(&latency);
  if (first < 0 || heardAfter < 0) return 0;
  long start = (long)jack_last_frame_time(hands);
  for (int index = atomic_load(&sentCount) + atomic_load(&missedCount); index < noteCount; index++) {
    struct Note *note = &notes[index];
    long target = first + note->click * spacing + heardAfter + note->offset;
    if (target >= start + (long)frames) break;
    if (target < start) {
      atomic_fetch_add(&missedCount, 1);
      continue;
    }
    jack_midi_data_t bytes[3] = {0x99, (jack_midi_data_t)note->note, (jack_midi_data_t)note->velocity};
    jack_midi_event_write(buffer, (jack_nframes_t)(target - start), bytes, 3);
    note->sentAt = (jack_nframes_t)target;
    atomic_fetch_add(&sentCount, 1);
  }
  return 0;
}

static jack_client_t *join(const char *name, JackProcessCallback callback) {
  jack_client_t *client = jack_client_open(name, JackNoStartServer | JackUseExactName, NULL);
  if (!client) {
    fprintf(stderr, "hit-player: cannot join the JACK server as %s\n", name);
    exit(1);
  }
  jack_set_process_callback(client, callback, NULL);
  return client;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: hit-player CLICK_PORT HITS_PORT SPACING SECONDS < PLAN\n");
    return 64;
  }
  spacing = atol(argv[3]);
  while (noteCount < MOST && scanf("%ld %ld %d %d", &notes[noteCount].click, &notes[noteCount].offset,
                                   &notes[noteCount].note, &notes[noteCount].velocity) == 4)
    noteCount++;
  ear = join("hit-ear", hear);
  hands = join("hit-hands", play);
  earInput = jack_port_register(ear, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
  handsOutput = jack_port_register(hands, "out", JACK_DEFAULT_MIDI_TYPE, JackPortIsOutput, 0);
  if (!earInput || !handsOutput || jack_activate(ear) || jack_activate(hands) ||
      jack_connect(ear, argv[1], jack_port_name(earInput)) ||
      jack_connect(hands, jack_port_name(handsOutput), argv[2])) {
    fprintf(stderr, "hit-player: cannot connect %s and %s\n", argv[1], argv[2]);
    return 1;
  }
  /* The latency settles once the server has recomputed it for the new connections. */
  usleep(200000);
  jack_latency_range_t range;
  jack_port_get_latency_range(jack_port_by_name(hands, argv[1]), JackPlaybackLatency, &range);
  atomic_store(&latency, (long)range.max);
  /* A take lasts as long as its plan: a player still waiting after its last note would only hold
     the test that waits for it. Polled every 10 ms; the last note's cycle is through well before
     the 50 ms left after it. */
  struct timespec now, end;
  clock_gettime(CLOCK_MONOTONIC, &end);
  end.tv_sec += atol(argv[4]);
  for (;;) {
    if (noteCount > 0 && atomic_load(&sentCount) + atomic_load(&missedCount) == noteCount) {
      usleep(50000);
      break;
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec)) break;
    usleep(10000);
  }
  jack_client_close(hands);
  jack_client_close(ear);
  printf("latency %ld\nfirst %ld\n", atomic_load(&latency), atomic_load(&firstClick));
  for (int index = 0; index < noteCount; index++)
    if (notes[index].sentAt) printf("sent %ld %ld %u\n", notes[index].click, notes[index].offset, notes[index].sentAt);
  printf("missed %d\n", atomic_load(&missedCount));
  return 0;
}
