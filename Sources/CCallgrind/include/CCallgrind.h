#ifndef VIVABRIDGE_CCALLGRIND_H
#define VIVABRIDGE_CCALLGRIND_H

/* Valgrind client requests for the benchmark's instruction workload (docs/PERFORMANCE.md): each is a no-op
   outside valgrind, and on an architecture the vendored requests do not cover. */

/** Nonzero when the process runs under valgrind (and the requests below reach it). */
unsigned long vivabridge_running_on_valgrind(void);

/** Callgrind counts from here on (CALLGRIND_START_INSTRUMENTATION; run with --instr-atstart=no). */
void vivabridge_callgrind_start(void);

/** Callgrind stops counting (CALLGRIND_STOP_INSTRUMENTATION): the profile at exit holds what came between. */
void vivabridge_callgrind_stop(void);

#endif
