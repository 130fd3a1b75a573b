// Linux's epoll and eventfd, which Swift's Glibc module does not bring in (the `--io epoll`
// listener). Only these headers: including socket headers here would declare their names a
// second time, beside Glibc's, and make them ambiguous to Swift.
#include <sys/epoll.h>
#include <sys/eventfd.h>

// GNU extensions Swift's Glibc module leaves out (it is built without _GNU_SOURCE).
struct sockaddr;
extern int accept4(int fd, struct sockaddr *address, unsigned int *length, int flags);
extern int pthread_setname_np(unsigned long thread, const char *name);
// Returns the heap's free pages to the system (glibc's malloc.h; `HeapTrimmer`).
extern int malloc_trim(unsigned long pad);
