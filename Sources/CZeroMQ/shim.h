#ifndef VIVABRIDGE_CZEROMQ_SHIM_H
#define VIVABRIDGE_CZEROMQ_SHIM_H
#include <zmq.h>
#if defined(__linux__)
#include <sys/epoll.h>
#endif
#endif
