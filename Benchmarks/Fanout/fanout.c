// The floor server and the timing client of ServiceBench's fan-out figure (issue 13).
// ServiceBench compiles this file with `cc -O2` and runs it; nothing else uses it.
//
//   fanout serve SOCKET
//       The floor: a minimal single-threaded epoll server doing focusd's fan-out and nothing else.
//       A NUL-framed message with "more":true subscribes its connection (one reply, continues);
//       any other message is a call: one event is written to every subscriber, then the reply to
//       the caller. The event and the reply are fixed bytes of the size of focusd's own.
//   fanout time SOCKET[,SOCKET] MONITORS MOVES WARMUP SCENE [BLOCK [BLOCKWARMUP]]
//       The client: MONITORS connections send io.focusd.Focus.Monitor(scene) and read its first
//       reply; one more connection sends MOVES + WARMUP alternating Move(right/left) calls, one at
//       a time. For each timed move it waits for the reply and for one message containing
//       "kind":"focus" at every monitor, all on one thread (poll), and prints one line per move:
//       the round trip, then each monitor's arrival, in microseconds since the call was written.
//       The same binary times focusd and the floor, so both pay the same client costs. Given two
//       sockets, it connects to both and alternates between them in blocks of BLOCK moves (ABBA),
//       and each line starts with the server's index (0 the first socket): both servers are timed
//       through the same stretch of the machine's time, a millisecond apart. Each block then starts
//       with BLOCKWARMUP more untimed moves (default 0): the first moves after the other server ran
//       find the caches holding its work (docs/fanout.md, "Sixth pass").
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAXFD 64
#define BUFSIZE 65536

static void die(const char *what) {
    perror(what);
    exit(1);
}

static int connect_to(const char *path) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) die("connect");
    return fd;
}

static void write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(fd, bytes, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;  // the floor drops a subscriber that went away; the client dies on read
        bytes += written;
        count -= (size_t)written;
    }
}

/* Per-connection input: bytes read and not yet taken as whole messages. */
struct input {
    char data[BUFSIZE];
    size_t used;
};

/* Reads what is available; returns -1 at end of stream or error. */
static int fill(int fd, struct input *in) {
    if (in->used == BUFSIZE) { fprintf(stderr, "fanout: message too large\n"); exit(1); }
    ssize_t count = read(fd, in->data + in->used, BUFSIZE - in->used);
    if (count < 0 && errno == EINTR) return 0;
    if (count <= 0) return -1;
    in->used += (size_t)count;
    return 0;
}

/* Takes the first whole message (without its NUL) into out; returns its length or -1. */
static long take(struct input *in, char *out) {
    char *end = memchr(in->data, 0, in->used);
    if (!end) return -1;
    size_t length = (size_t)(end - in->data);
    memcpy(out, in->data, length);
    out[length] = 0;
    memmove(in->data, end + 1, in->used - length - 1);
    in->used -= length + 1;
    return (long)length;
}

// MARK: The floor server

/* Sized like focusd's own focus event and Move reply for the 2-node bench scene. */
static const char event[] =
    "{\"parameters\":{\"event\":{\"kind\":\"focus\",\"scene\":\"bench\",\"revision\":1000,\"track\":\"main\","
    "\"from\":\"cell-0-0\",\"to\":\"cell-1-0\",\"cause\":{\"kind\":\"directional\",\"direction\":\"right\"}}},"
    "\"continues\":true}";
static const char reply[] =
    "{\"parameters\":{\"state\":{\"scene\":\"bench\",\"revision\":1000,\"active\":true,\"focused\":\"cell-1-0\","
    "\"bindings\":{},\"focusedValues\":{},\"sceneValues\":{},\"scroll\":[],\"tracks\":{}}}}";
static const char subscribed[] =
    "{\"parameters\":{\"state\":{\"scene\":\"bench\",\"revision\":1,\"active\":true,\"focused\":\"cell-0-0\"}},"
    "\"continues\":true}";

static _Noreturn void serve(const char *path) {
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    unlink(path);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 64) != 0) die("bind");
    int poller = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event watch = {.events = EPOLLIN, .data.fd = listener};
    epoll_ctl(poller, EPOLL_CTL_ADD, listener, &watch);
    static struct input inputs[MAXFD];
    static char message[BUFSIZE];
    int subscribers[MAXFD];
    int subscriberCount = 0;
    fprintf(stdout, "ready\n");
    fflush(stdout);
    for (;;) {
        struct epoll_event ready[16];
        int count = epoll_wait(poller, ready, 16, -1);
        if (count < 0 && errno == EINTR) continue;
        for (int i = 0; i < count; i++) {
            int fd = ready[i].data.fd;
            if (fd == listener) {
                int client = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
                if (client < 0 || client >= MAXFD) { if (client >= 0) close(client); continue; }
                inputs[client].used = 0;
                struct epoll_event add = {.events = EPOLLIN, .data.fd = client};
                epoll_ctl(poller, EPOLL_CTL_ADD, client, &add);
                continue;
            }
            if (fill(fd, &inputs[fd]) < 0) {
                epoll_ctl(poller, EPOLL_CTL_DEL, fd, NULL);
                for (int s = 0; s < subscriberCount; s++)
                    if (subscribers[s] == fd) subscribers[s] = subscribers[--subscriberCount];
                close(fd);
                continue;
            }
            while (take(&inputs[fd], message) >= 0) {
                if (strstr(message, "\"more\":true")) {
                    subscribers[subscriberCount++] = fd;
                    write_all(fd, subscribed, sizeof subscribed);  // with its NUL
                } else {
                    for (int s = 0; s < subscriberCount; s++) write_all(subscribers[s], event, sizeof event);
                    write_all(fd, reply, sizeof reply);
                }
            }
        }
    }
}

// MARK: The client

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* One server as the client sees it: its monitors' and caller's connections (fds[0] the caller). */
struct server {
    struct pollfd fds[MAXFD];
    struct input inputs[MAXFD];
    int count;
    int moves;  // moves made so far, warm-up included, a block's own warm-up not
    int made;   // every move made (their directions alternate)
};

/* Connects `monitors` monitors of `scene` (each reads its first reply) and the caller. */
static int open_server(struct server *server, const char *path, int monitors, const char *scene) {
    static char message[BUFSIZE];
    char call[512];
    snprintf(call, sizeof call, "{\"method\":\"io.focusd.Focus.Monitor\",\"parameters\":{\"scene\":\"%s\"},\"more\":true}", scene);
    server->count = monitors + 1;
    server->moves = 0;
    server->made = 0;
    for (int m = 1; m <= monitors; m++) {
        server->fds[m].fd = connect_to(path);
        server->fds[m].events = POLLIN;
        server->inputs[m].used = 0;
        write_all(server->fds[m].fd, call, strlen(call) + 1);
        while (take(&server->inputs[m], message) < 0)
            if (fill(server->fds[m].fd, &server->inputs[m]) < 0) { fprintf(stderr, "fanout: monitor %d closed\n", m); return 1; }
    }
    server->fds[0].fd = connect_to(path);
    server->fds[0].events = POLLIN;
    server->inputs[0].used = 0;
    return 0;
}

/* One Move on `server`, timed into line[]: the round trip, then each monitor's arrival (µs). */
static int move_once(struct server *server, const char *scene, double *line) {
    static char message[BUFSIZE];
    char call[512];
    int count = server->count;
    int length = snprintf(call, sizeof call,
        "{\"method\":\"io.focusd.Focus.Move\",\"parameters\":{\"direction\":\"%s\",\"scene\":\"%s\"}}",
        server->made % 2 == 0 ? "right" : "left", scene);
    int waiting = count;
    for (int i = 0; i < count; i++) line[i] = -1;
    double start = now_us();
    write_all(server->fds[0].fd, call, (size_t)length + 1);
    while (waiting > 0) {
        if (poll(server->fds, (nfds_t)count, 10000) <= 0) { fprintf(stderr, "fanout: timed out at move %d\n", server->moves); return 1; }
        for (int i = 0; i < count; i++) {
            if (!(server->fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (fill(server->fds[i].fd, &server->inputs[i]) < 0) { fprintf(stderr, "fanout: connection %d closed\n", i); return 1; }
            while (take(&server->inputs[i], message) >= 0) {
                if (line[i] >= 0) continue;  // a later message of this move (none expected)
                if (i == 0) {
                    if (strstr(message, "\"error\"")) { fprintf(stderr, "fanout: %s\n", message); return 1; }
                } else if (!strstr(message, "\"kind\":\"focus\"")) {
                    continue;
                }
                line[i] = now_us() - start;
                waiting--;
            }
        }
    }
    server->made++;
    return 0;
}

/* `paths` holds one or two servers. With two, the client is connected to both and alternates
   between them in blocks of `block` moves (ABBA: which goes first alternates per pair of blocks),
   warm-up included, so that both see the same machine through the run; a timed line starts with
   the server's index. */
static int time_moves(char *paths, int monitors, int moves, int warmup, const char *scene, int block, int blockWarmup) {
    if (monitors < 1 || monitors > MAXFD - 2) { fprintf(stderr, "fanout: 1...%d monitors\n", MAXFD - 2); return 2; }
    if (block < 1) { fprintf(stderr, "fanout: blocks of at least 1 move\n"); return 2; }
    static struct server servers[2];
    int serverCount = 0;
    for (char *path = strtok(paths, ","); path && serverCount < 2; path = strtok(NULL, ","))
        if (open_server(&servers[serverCount++], path, monitors, scene)) return 1;
    double *line = calloc((size_t)monitors + 1, sizeof(double));
    for (int pair = 0;; pair++) {
        int busy = 0;
        for (int turn = 0; turn < serverCount; turn++) {
            struct server *server = &servers[serverCount == 2 && pair % 2 == 1 ? 1 - turn : turn];
            int index = (int)(server - servers);
            if (server->moves < moves + warmup)
                for (int w = 0; w < blockWarmup; w++)
                    if (move_once(server, scene, line)) return 1;
            for (int m = 0; m < block && server->moves < moves + warmup; m++) {
                busy = 1;
                int timed = server->moves >= warmup;
                if (move_once(server, scene, line)) return 1;
                server->moves++;
                if (!timed) continue;
                if (serverCount == 2) printf("%d ", index);
                for (int i = 0; i < server->count; i++) printf(i ? " %.2f" : "%.2f", line[i]);
                printf("\n");
            }
        }
        if (!busy) break;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "serve") == 0) serve(argv[2]);
    if (argc >= 7 && argc <= 9 && strcmp(argv[1], "time") == 0)
        return time_moves(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), argv[6], argc >= 8 ? atoi(argv[7]) : 1 << 30,
            argc == 9 ? atoi(argv[8]) : 0);
    fprintf(stderr, "usage: fanout serve SOCKET | fanout time SOCKET[,SOCKET] MONITORS MOVES WARMUP SCENE [BLOCK [BLOCKWARMUP]]\n");
    return 2;
}
