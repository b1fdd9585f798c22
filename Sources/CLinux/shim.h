#ifndef FEDNODE_CLINUX_SHIM_H
#define FEDNODE_CLINUX_SHIM_H
/* Linux interfaces Swift's Glibc module leaves out: epoll, for the benchmark's loopback sinks. */
#include <sys/epoll.h>
#endif
