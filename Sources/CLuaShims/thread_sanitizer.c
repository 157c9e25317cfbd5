// What differs under ThreadSanitizer, and why.
//
// Errors. Debian's liblua5.4 raises errors with glibc's fortified __longjmp_chk, which
// ThreadSanitizer does not intercept (it intercepts longjmp and siglongjmp, and Lua's
// _setjmp). Each Lua error that unwound instrumented C frames (the shims' library functions)
// then left their entries on ThreadSanitizer's shadow stack, which grew on a reused worker
// thread until the runtime itself crashed (a SEGV in TraceSwitchPart, one LuaKitTests run in
// four). The definition below, in the executable, is the one liblua's calls bind to, and
// hands the jump to the intercepted longjmp, which unwinds the shadow stack to the matching
// _setjmp. Other builds keep glibc's checked jump.
//
// The watchdog's signal. ThreadSanitizer's own handler holds an asynchronous signal back
// until the thread next calls into libc, which a Lua loop never does, so the stop never came;
// and it runs a synchronous one at once, even inside its runtime, where taking its locks
// again deadlocked (a free interrupted by SIGSYS). So the watchdog's handler is installed
// with glibc's __sigaction, which ThreadSanitizer does not intercept: the kernel runs it
// directly, and it is uninstrumented (WAYMARK_SIGNAL_HANDLER_CODE), touching only atomics and
// lua_sethook, so it never enters ThreadSanitizer's runtime.
#include "internal.h"

#if WAYMARK_THREAD_SANITIZED
#include <setjmp.h>

__attribute__((noreturn, visibility("default"))) void __longjmp_chk(jmp_buf env, int value);

void __longjmp_chk(jmp_buf env, int value) { longjmp(env, value); }

extern int __sigaction(int sig, const struct sigaction *action, struct sigaction *old);

int waymark_sigaction(int sig, const struct sigaction *action) { return __sigaction(sig, action, NULL); }
#else
int waymark_sigaction(int sig, const struct sigaction *action) { return sigaction(sig, action, NULL); }
#endif
