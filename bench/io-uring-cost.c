// What io_uring could save Hearth's relay (issue 22): the CPU cost of a 60-byte loopback TCP
// send and read, one system call each (as Hearth and InspIRCd do) against one io_uring_enter
// for a whole batch of N sockets (as a tick's writes would be), and the bare cost of entering
// the kernel (getppid). Run by scripts/io-uring-cost; not part of Hearth.
#include <liburing.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>
#include <sys/syscall.h>

enum { N = 500 };
static int tx[N], rx[N];
static char msg[60], buf[N][4096];

static double cpu(void) {
  struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 2000;
  memset(msg, 'x', sizeof msg); msg[58] = '\r'; msg[59] = '\n';
  int l = socket(AF_INET, SOCK_STREAM, 0), one = 1;
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  bind(l, (void *)&a, sizeof a); listen(l, 1024);
  socklen_t al = sizeof a; getsockname(l, (void *)&a, &al);
  for (int i = 0; i < N; i++) {
    tx[i] = socket(AF_INET, SOCK_STREAM, 0);
    connect(tx[i], (void *)&a, sizeof a);
    rx[i] = accept(l, 0, 0);
    setsockopt(tx[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(rx[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    fcntl(tx[i], F_SETFL, O_NONBLOCK); fcntl(rx[i], F_SETFL, O_NONBLOCK);
  }
  struct io_uring ring;
  if (io_uring_queue_init(2 * N, &ring, 0)) { perror("io_uring_queue_init"); return 1; }
  double sendPlain = 0, recvPlain = 0, sendRing = 0, recvRing = 0, t;
  for (int r = 0; r < rounds; r++) {
    t = cpu();
    for (int i = 0; i < N; i++) if (send(tx[i], msg, sizeof msg, MSG_NOSIGNAL) != sizeof msg) abort();
    sendPlain += cpu() - t; t = cpu();
    for (int i = 0; i < N; i++) if (read(rx[i], buf[i], sizeof buf[i]) != sizeof msg) abort();
    recvPlain += cpu() - t; t = cpu();
    for (int i = 0; i < N; i++) {
      struct io_uring_sqe *s = io_uring_get_sqe(&ring);
      io_uring_prep_send(s, tx[i], msg, sizeof msg, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    io_uring_submit_and_wait(&ring, N);
    struct io_uring_cqe *c; unsigned head, seen = 0;
    io_uring_for_each_cqe(&ring, head, c) { if (c->res != sizeof msg) abort(); seen++; }
    io_uring_cq_advance(&ring, seen);
    sendRing += cpu() - t; t = cpu();
    for (int i = 0; i < N; i++) {
      struct io_uring_sqe *s = io_uring_get_sqe(&ring);
      io_uring_prep_recv(s, rx[i], buf[i], sizeof buf[i], MSG_DONTWAIT);
    }
    io_uring_submit_and_wait(&ring, N);
    seen = 0;
    io_uring_for_each_cqe(&ring, head, c) { if (c->res != sizeof msg) abort(); seen++; }
    io_uring_cq_advance(&ring, seen);
    recvRing += cpu() - t;
  }
  double n = (double)rounds * N;
  t = cpu();
  for (int i = 0; i < (int)n; i++) syscall(SYS_getppid);
  double bare = cpu() - t;
  printf("ns of CPU per message (%d sockets, %d rounds): send %.0f, io_uring send %.0f; "
         "read %.0f, io_uring recv %.0f; a bare system call (getppid) %.0f\n", N, rounds,
         sendPlain / n * 1e9, sendRing / n * 1e9, recvPlain / n * 1e9, recvRing / n * 1e9, bare / n * 1e9);
  return 0;
}
