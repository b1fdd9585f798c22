#ifndef FEDNODE_CLINUX_SHIM_H
#define FEDNODE_CLINUX_SHIM_H
/* Linux interfaces Swift's Glibc module leaves out, for the benchmark's loopback sinks. */
#include <sys/epoll.h>
#include <sys/socket.h>

/* glibc declares accept4 only under _GNU_SOURCE, which Swift's Glibc module is built without. */
extern int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags);
#endif
