/* A drummer with a microphone, made of two JACK clients, for the audio listening tests and for
   trying --listen without a kit: "drum-ear" hears metronome's clicks on its input port
   (connected from CLICK_PORT) and "drum-mic" plays, on its output port (connected to MIC_PORT),
   what a microphone beside the speaker would pick up: the player's strokes, samples of a drum
   kit at frames chosen against the clicks, and the clicks themselves at CLICK_GAIN, all MIC_DELAY
   frames after they sound (the microphone's own latency).

     drum-player CLICK_PORT MIC_PORT SPACING SECONDS KIT_FOLDER CLICK_GAIN MIC_DELAY < PLAN

   Each line of PLAN is "CLICK OFFSET SAMPLE GAIN": the kit's SAMPLE.wav at GAIN for the click
   numbered CLICK (0 is the second one heard, the first whose whole start was), OFFSET frames from
   when that click is heard (negative: early); the lines in the order the strokes are played.
   Clicks are SPACING frames apart from the first (a steady tempo, which metronome plays to the
   frame). A click is heard at the frame time it was written plus CLICK_PORT's playback latency
   (the most JACK reports once the ports are connected), so a stroke with OFFSET 0 is on the click.
   With no PLAN and SPACING 0 it only brings the output back: a loop with a delay of its own.
   CLICK_GAIN may be GAIN*FACTOR@CLICK: the clicks come back FACTOR times as loud from a
   quarter of a spacing before the click numbered CLICK on (a speaker turned up mid-take).
   An empty CLICK_PORT or MIC_PORT connects nothing there, for clients that connect themselves
   (ALSA's JACK plugin, named in an .asoundrc); the ear then hears a click as it arrives.
   After SECONDS, or sooner on SIGTERM (once the take it plays for is over), it prints
   "latency L", "first F" (the first click's frame time as written), a line "sent CLICK OFFSET
   FRAMETIME" for each stroke (the frame its sample starts on at the microphone) and "missed N"
   for strokes whose frame had passed before the first click was heard, then exits. Clicks: a
   sample of 0.05 or more after 96 quieter frames. */
#include <jack/jack.h>
#include <signal.h>
#include <sndfile.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MOST 10000
#define RING (1 << 20)
static jack_client_t *ear, *mic;
static jack_port_t *earInput, *micOutput;
static struct Stroke {
  long click, offset;
  char sample[64];
  float gain;
  float *sound;
  long length;
  long start; /* frame time its sample starts on at the microphone; -1 until placed */
} strokes[MOST];
static int strokeCount;
static long spacing, micDelay;
static float clickGain, gainFactor = 1;
static long gainClick = -1;
/* What the ear heard, by frame time modulo RING, and the frame time after the last heard. */
static float heard[RING];
static atomic_long heardUntil = -1;
static atomic_long firstClick = -1;
static int onsets;
static atomic_long latency = -1;
static atomic_int placedCount, missedCount;
static jack_nframes_t quiet = 0;

static int hear(jack_nframes_t frames, void *unused) {
  (void)unused;
  const float *samples = jack_port_get_buffer(earInput, frames);
  jack_nframes_t start = jack_last_frame_time(ear);
  for (jack_nframes_t i = 0; i < frames; i++) {
    heard[(start + i) % RING] = samples[i];
    if (samples[i] >= 0.05f || samples[i] <= -0.05f) {
      if (quiet >= 96 && ++onsets == 2) atomic_store(&firstClick, (long)(start + i));
      quiet = 0;
    } else if (quiet < 96) {
      quiet++;
    }
  }
  atomic_store(&heardUntil, (long)(start + frames));
  return 0;
}

static int play(jack_nframes_t frames, void *unused) {
  (void)unused;
  float *out = jack_port_get_buffer(micOutput, frames);
  long start = (long)jack_last_frame_time(mic), heardAfter = atomic_load(&latency);
  long until = atomic_load(&heardUntil), first = atomic_load(&firstClick);
  long louderFrom = first >= 0 && gainClick >= 0 ? first + gainClick * spacing - spacing / 4 : -1;
  for (jack_nframes_t i = 0; i < frames; i++) {
    long source = start + (long)i - (heardAfter < 0 ? 0 : heardAfter) - micDelay;
    float gain = louderFrom >= 0 && source >= louderFrom ? clickGain * gainFactor : clickGain;
    out[i] = heardAfter >= 0 && source < until && source >= until - RING + 1 ? gain * heard[source % RING] : 0;
  }
  if (first < 0 || heardAfter < 0) return 0;
  for (int index = atomic_load(&placedCount) + atomic_load(&missedCount); index < strokeCount; index++) {
    struct Stroke *stroke = &strokes[index];
    long target = first + stroke->click * spacing + heardAfter + stroke->offset + micDelay;
    if (target >= start + (long)frames) break;
    if (target < start) {
      atomic_fetch_add(&missedCount, 1);
      continue;
    }
    stroke->start = target;
    atomic_fetch_add(&placedCount, 1);
  }
  for (int index = 0; index < atomic_load(&placedCount) + atomic_load(&missedCount); index++) {
    struct Stroke *stroke = &strokes[index];
    if (stroke->start < 0 || stroke->start + stroke->length <= start) continue;
    for (jack_nframes_t i = 0; i < frames; i++) {
      long at = start + (long)i - stroke->start;
      if (at >= 0 && at < stroke->length) out[i] += stroke->gain * stroke->sound[at];
    }
  }
  return 0;
}

static jack_client_t *join(const char *name, JackProcessCallback callback) {
  jack_client_t *client = jack_client_open(name, JackNoStartServer | JackUseExactName, NULL);
  if (!client) {
    fprintf(stderr, "drum-player: cannot join the JACK server as %s\n", name);
    exit(1);
  }
  jack_set_process_callback(client, callback, NULL);
  return client;
}

/* The first channel of FOLDER/NAME.wav as floats; exits if it cannot be read. */
static float *load(const char *folder, const char *name, long *length) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.wav", folder, name);
  SF_INFO info = {0};
  SNDFILE *file = sf_open(path, SFM_READ, &info);
  if (!file) {
    fprintf(stderr, "drum-player: cannot read %s\n", path);
    exit(1);
  }
  float *frames = malloc(sizeof(float) * (size_t)(info.frames * info.channels));
  float *sound = malloc(sizeof(float) * (size_t)info.frames);
  sf_readf_float(file, frames, info.frames);
  sf_close(file);
  for (long i = 0; i < info.frames; i++) sound[i] = frames[i * info.channels];
  free(frames);
  *length = (long)info.frames;
  return sound;
}

static volatile sig_atomic_t ended;
static void endEarly(int signal) {
  (void)signal;
  ended = 1;
}

int main(int argc, char **argv) {
  struct sigaction ending = {.sa_handler = endEarly};
  sigaction(SIGTERM, &ending, NULL);
  if (argc != 8) {
    fprintf(stderr, "usage: drum-player CLICK_PORT MIC_PORT SPACING SECONDS KIT_FOLDER CLICK_GAIN MIC_DELAY < PLAN\n");
    return 64;
  }
  spacing = atol(argv[3]);
  if (sscanf(argv[6], "%f*%f@%ld", &clickGain, &gainFactor, &gainClick) < 1) {
    fprintf(stderr, "drum-player: CLICK_GAIN is GAIN or GAIN*FACTOR@CLICK, not %s\n", argv[6]);
    return 64;
  }
  micDelay = atol(argv[7]);
  while (strokeCount < MOST && scanf("%ld %ld %63s %f", &strokes[strokeCount].click, &strokes[strokeCount].offset,
                                     strokes[strokeCount].sample, &strokes[strokeCount].gain) == 4) {
    struct Stroke *stroke = &strokes[strokeCount++];
    stroke->sound = load(argv[5], stroke->sample, &stroke->length);
    stroke->start = -1;
  }
  ear = join("drum-ear", hear);
  mic = join("drum-mic", play);
  earInput = jack_port_register(ear, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
  micOutput = jack_port_register(mic, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
  /* Hearing a click as it arrives (no CLICK_PORT, so no playback latency to wait), the microphone
     brings it back in the same cycle: a connection from the ear to the microphone has the server
     run the ear first. (With CLICK_PORT the clicks come from the client MIC_PORT belongs to, and
     that connection would close a loop through it.) */
  int ordered = !*argv[1];
  jack_port_t *earAfter = ordered ? jack_port_register(ear, "order", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0) : 0;
  jack_port_t *micAfter = ordered ? jack_port_register(mic, "order", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0) : 0;
  if (!earInput || !micOutput || (ordered && (!earAfter || !micAfter)) || jack_activate(ear) || jack_activate(mic) ||
      (ordered && jack_connect(ear, jack_port_name(earAfter), jack_port_name(micAfter))) ||
      (*argv[1] && jack_connect(ear, argv[1], jack_port_name(earInput))) ||
      (*argv[2] && jack_connect(mic, jack_port_name(micOutput), argv[2]))) {
    fprintf(stderr, "drum-player: cannot connect %s and %s\n", argv[1], argv[2]);
    return 1;
  }
  /* The latency settles once the server has recomputed it for the new connections. */
  usleep(200000);
  jack_latency_range_t range = {0, 0};
  if (*argv[1]) jack_port_get_latency_range(jack_port_by_name(mic, argv[1]), JackPlaybackLatency, &range);
  atomic_store(&latency, (long)range.max);
  for (long waited = 0; waited < atol(argv[4]) * 100 && !ended; waited++) usleep(10000);
  jack_client_close(mic);
  jack_client_close(ear);
  printf("latency %ld\nfirst %ld\n", atomic_load(&latency), atomic_load(&firstClick));
  for (int index = 0; index < strokeCount; index++)
    if (strokes[index].start >= 0) printf("sent %ld %ld %ld\n", strokes[index].click, strokes[index].offset, strokes[index].start);
  printf("missed %d\n", atomic_load(&missedCount));
  return 0;
}
