/* Times metronome's /metronome/beat messages against the clicks they tell of, for
   scripts/bench-beat-messages: a JACK client "beat-listener" whose input port it connects to PORT
   (metronome's click) and an OSC socket of its own on 127.0.0.1. It prints "ready OSCPORT"; when
   metronome's /klick/ready arrives it registers with /klick/register_client. For SECONDS it notes
   the JACK frame time of every click it hears (a sample of 0.05 or more after 96 quieter frames)
   and, for every /metronome/beat, the frame time at which it arrived, the beat's own frame and
   PORT's playback latency then (the most frames; JACK counts it from the frame time of the cycle
   that wrote the click); then it prints one line per click ("click FRAMETIME") and per message
   ("message FRAMETIME FRAME LATENCY"). */
#include <arpa/inet.h>
#include <jack/jack.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MOST 100000
static jack_client_t *client;
static jack_port_t *input;
static jack_nframes_t clicks[MOST];
static atomic_int clickCount;
/* Quiet frames heard so far: none at first, so that a click already sounding when the port is
   connected is not taken for one starting there. */
static jack_nframes_t quiet = 0;

static int process(jack_nframes_t frames, void *unused) {
  (void)unused;
  const float *samples = jack_port_get_buffer(input, frames);
  jack_nframes_t start = jack_last_frame_time(client);
  for (jack_nframes_t i = 0; i < frames; i++) {
    if (samples[i] >= 0.05f || samples[i] <= -0.05f) {
      int count = atomic_load(&clickCount);
      if (quiet >= 96 && count < MOST) {
        clicks[count] = start + i;
        atomic_store(&clickCount, count + 1);
      }
      quiet = 0;
    } else if (quiet < 96) {
      quiet++;
    }
  }
  return 0;
}

/* The length of an OSC string at `p` with its padding. */
static size_t padded(const char *p) { return (strlen(p) / 4 + 1) * 4; }

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: beat-listener PORT SECONDS\n");
    return 64;
  }
  jack_status_t status;
  client = jack_client_open("beat-listener", JackNoStartServer, &status);
  if (!client) {
    fprintf(stderr, "beat-listener: no JACK server\n");
    return 1;
  }
  input = jack_port_register(client, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
  jack_set_process_callback(client, process, NULL);
  int sock = socket(AF_INET, SOCK_DGRAM, 0);
  struct sockaddr_in here = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t length = sizeof here;
  if (!input || jack_activate(client) || sock < 0 || bind(sock, (struct sockaddr *)&here, sizeof here) ||
      getsockname(sock, (struct sockaddr *)&here, &length)) {
    fprintf(stderr, "beat-listener: no port\n");
    return 1;
  }
  struct timeval tick = {.tv_sec = 0, .tv_usec = 100000};
  setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof tick);
  printf("ready %d\n", ntohs(here.sin_port));
  fflush(stdout);

  static jack_nframes_t arrivals[MOST], latencies[MOST];
  static int64_t frames[MOST];
  int messages = 0, connected = 0;
  time_t end = time(NULL) + atoi(argv[2]);
  while (time(NULL) < end) {
    if (!connected) connected = jack_connect(client, argv[1], jack_port_name(input)) == 0;
    unsigned char packet[1500];
    struct sockaddr_in from;
    socklen_t fromLength = sizeof from;
    ssize_t size = recvfrom(sock, packet, sizeof packet - 1, 0, (struct sockaddr *)&from, &fromLength);
    if (size <= 0) continue;
    jack_nframes_t arrival = jack_frame_time(client);
    packet[size] = 0;
    const char *path = (const char *)packet;
    if (strcmp(path, "/klick/ready") == 0) {
      char url[64], reply[128] = {0};
      snprintf(url, sizeof url, "osc.udp://127.0.0.1:%d/", ntohs(here.sin_port));
      size_t at = padded("/klick/register_client");
      memcpy(reply, "/klick/register_client", 22);
      memcpy(reply + at, ",s", 2);
      memcpy(reply + at + 4, url, strlen(url));
      sendto(sock, reply, at + 4 + padded(url), 0, (struct sockaddr *)&from, fromLength);
    } else if (strcmp(path, "/metronome/beat") == 0 && messages < MOST) {
      /* ,iiissfhd: three ints, two strings, a float, then the frame. */
      size_t at = padded(path);
      at += padded((const char *)packet + at) + 12;
      at += padded((const char *)packet + at);
      at += padded((const char *)packet + at) + 4;
      if (at + 8 > (size_t)size) continue;
      uint64_t frame = 0;
      for (int i = 0; i < 8; i++) frame = frame << 8 | packet[at + i];
      jack_latency_range_t latency = {0, 0};
      jack_port_t *port = jack_port_by_name(client, argv[1]);
      if (port) jack_port_get_latency_range(port, JackPlaybackLatency, &latency);
      arrivals[messages] = arrival;
      latencies[messages] = latency.max;
      frames[messages++] = (int64_t)frame;
    }
  }
  int count = atomic_load(&clickCount);
  for (int i = 0; i < count; i++) printf("click %u\n", clicks[i]);
  for (int i = 0; i < messages; i++) {
    printf("message %u %lld %u\n", arrivals[i], (long long)frames[i], latencies[i]);
  }
  jack_client_close(client);
  return 0;
}
