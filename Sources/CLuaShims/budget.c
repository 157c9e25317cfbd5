// The budget's face: setting a state's time and instruction budgets (the watchdog watches
// the states that have either), and what C code checks where the watchdog's hook cannot
// reach. The hook fires between Lua
// instructions, so a long loop inside one C function (a pattern match, a table move, a sort,
// the parser) would run past the time budget; the library functions the shim provides
// instead of Lua's own count their steps and ask here every few thousand. And nesting that
// Lua does not count against its C-stack limit (closing coroutines from their own __close
// handlers) is stopped while the thread still has stack to unwind.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>

#include "CLuaShims.h"
#include "internal.h"

void waymark_set_budget(waymark_runtime *rt, uint32_t ms) {
  rt->configured_budget_ms = ms;
  if (ms != 0) waymark_watchdog_register(rt);
}

void waymark_set_instruction_budget(waymark_runtime *rt, uint64_t instructions, int exact) {
  if (waymark_configure_instructions(rt, instructions, exact)) waymark_watchdog_register(rt);
}

void waymark_check_budget(lua_State *L, size_t steps) {
  waymark_runtime *rt = waymark_runtime_if_ours(L);
  if (rt == NULL) return;
  waymark_count_steps(L, rt, steps);
  if (waymark_timed_out(rt)) waymark_raise_stop(L, rt);
}

// MARK: - C stack

/// How much C stack must stay free below a coroutine switch: enough for Lua's own limit of
/// 200 nested C calls (about 1 KiB each, more under sanitizers) on the new thread.
enum { STACK_RESERVE = 1 << 20 };

/// The lowest address this thread may reach before a coroutine switch is refused (0 until
/// first asked).
static _Thread_local uintptr_t stack_floor = 0;

static uintptr_t find_stack_floor(void) {
  pthread_attr_t attr;
  void *low = NULL;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 1;
  if (pthread_attr_getstack(&attr, &low, &size) != 0) low = NULL;
  pthread_attr_destroy(&attr);
  if (low == NULL) return 1; // unknown: never refuse
  size_t reserve = size / 2 < STACK_RESERVE ? size / 2 : STACK_RESERVE;
  return (uintptr_t)low + reserve;
}

void waymark_check_cstack(lua_State *L) {
  char here;
  if (stack_floor == 0) stack_floor = find_stack_floor();
  if ((uintptr_t)&here < stack_floor) luaL_error(L, "C stack overflow");
}
