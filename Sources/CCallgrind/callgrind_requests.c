/* Valgrind's client requests, vendored so that the target builds where valgrind's headers are absent (and so
   that a build made before valgrind was installed still marks the window). What follows is adapted from
   valgrind.h and callgrind.h, which carry this licence:

   Copyright (C) 2000-2017 Julian Seward.  All rights reserved.
   Copyright (C) 2003-2017 Josef Weidendorfer.  All rights reserved.

   Redistribution and use in source and binary forms, with or without modification, are permitted provided
   that the following conditions are met:

   1. Redistributions of source code must retain the above copyright notice, this list of conditions and the
      following disclaimer.
   2. The origin of this software must not be misrepresented; you must not claim that you wrote the original
      software.  If you use this software in a product, an acknowledgment in the product documentation would
      be appreciated but is not required.
   3. Altered source versions must be plainly marked as such, and must not be misrepresented as being the
      original software.
   4. The name of the author may not be used to endorse or promote products derived from this software
      without specific prior written permission.

   THIS SOFTWARE IS PROVIDED BY THE AUTHOR ``AS IS'' AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT
   NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
   DISCLAIMED.  IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL,
   EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
   SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF
   LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN
   ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.

   Altered: only the client request of amd64 and arm64 Linux, as a function, and the three requests used. */

#include "CCallgrind.h"

#define VB_RUNNING_ON_VALGRIND 0x1001UL
/* VG_USERREQ_TOOL_BASE('C','T'): callgrind's requests, in the order of callgrind.h's enum. */
#define VB_CALLGRIND_BASE ((unsigned long)((('C' & 0xff) << 24) | (('T' & 0xff) << 16)))
#define VB_CALLGRIND_START_INSTRUMENTATION (VB_CALLGRIND_BASE + 4)
#define VB_CALLGRIND_STOP_INSTRUMENTATION (VB_CALLGRIND_BASE + 5)

static unsigned long vb_client_request(unsigned long request) {
    volatile unsigned long args[6] = {request, 0, 0, 0, 0, 0};
    volatile unsigned long result = 0;
#if defined(__linux__) && defined(__x86_64__)
    __asm__ volatile("rolq $3,  %%rdi ; rolq $13, %%rdi\n\t"
                     "rolq $61, %%rdi ; rolq $51, %%rdi\n\t"
                     "xchgq %%rbx,%%rbx"
                     : "=d"(result)
                     : "a"(&args[0]), "0"(0UL)
                     : "cc", "memory");
#elif defined(__linux__) && defined(__aarch64__)
    __asm__ volatile("mov x3, %1\n\t"
                     "mov x4, %2\n\t"
                     "ror x12, x12, #3  ;  ror x12, x12, #13 \n\t"
                     "ror x12, x12, #51 ;  ror x12, x12, #61 \n\t"
                     "orr x10, x10, x10\n\t"
                     "mov %0, x3"
                     : "=r"(result)
                     : "r"(0UL), "r"(&args[0])
                     : "cc", "memory", "x3", "x4");
#else
    (void)args;
#endif
    return result;
}

unsigned long vivabridge_running_on_valgrind(void) { return vb_client_request(VB_RUNNING_ON_VALGRIND); }

void vivabridge_callgrind_start(void) { (void)vb_client_request(VB_CALLGRIND_START_INSTRUMENTATION); }

void vivabridge_callgrind_stop(void) { (void)vb_client_request(VB_CALLGRIND_STOP_INSTRUMENTATION); }
