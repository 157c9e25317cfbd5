// Under ThreadSanitizer only: Debian's liblua5.4 raises errors with glibc's fortified
// __longjmp_chk, which ThreadSanitizer does not intercept (it intercepts longjmp and
// siglongjmp, and Lua's _setjmp). Each Lua error that unwound instrumented C frames (the
// shims' library functions) then left their entries on ThreadSanitizer's shadow stack, which
// grew on a reused worker thread until the runtime itself crashed (a SEGV in
// TraceSwitchPart, one LuaKitTests run in four). This definition, in the executable, is the
// one liblua's calls bind to, and hands the jump to the intercepted longjmp, which unwinds
// the shadow stack to the matching _setjmp. Other builds keep glibc's checked jump.
#include "CLuaShimsRuntime.h"

#if WAYMARK_THREAD_SANITIZED
#include <setjmp.h>

__attribute__((noreturn, visibility("default"))) void __longjmp_chk(jmp_buf env, int value);

void __longjmp_chk(jmp_buf env, int value) { longjmp(env, value); }
#endif
