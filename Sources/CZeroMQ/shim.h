#ifndef VIVABRIDGE_CZEROMQ_SHIM_H
#define VIVABRIDGE_CZEROMQ_SHIM_H
#include <zmq.h>
#endif
