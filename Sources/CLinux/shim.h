#ifndef FEDNODE_CLINUX_SHIM_H
#define FEDNODE_CLINUX_SHIM_H
/* Linux interfaces Swift's Glibc module leaves out, for the benchmark's loopback sinks. */
#include <sys/epoll.h>

/* glibc declares accept4 only under _GNU_SOURCE, which Swift's Glibc module is built without.
 * Declared here without including <sys/socket.h>, whose declarations belong to Glibc's module
 * (the third argument is a socklen_t, an unsigned int). */
struct sockaddr;
extern int accept4(int fd, struct sockaddr *addr, unsigned int *addrlen, int flags);
#endif
