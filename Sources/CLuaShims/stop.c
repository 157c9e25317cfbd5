// What a stopped call raises, and whether a state's running call is stopped: the bottom
// of the budget's layers (budget.h), which the counting hook, the watchdog's hook and the
// C loops' checks all end in.
#include "CLuaShims.h"
#include "internal.h"

/// The runtime of L if the shim opened its state (the allocator is the capped one).
waymark_runtime *waymark_runtime_if_ours(lua_State *L) {
  void *ud = NULL;
  if (lua_getallocf(L, &ud) != waymark_alloc) return NULL;
  return (waymark_runtime *)ud;
}

int waymark_is_stopped(lua_State *L) {
  waymark_runtime *rt = waymark_runtime_if_ours(L);
  return rt != NULL && waymark_timed_out(rt);
}

void waymark_raise_stop(lua_State *L, waymark_runtime *rt) {
  if (rt->instructions_exceeded) {
    luaL_error(L, "instruction budget of %I instructions exceeded", (lua_Integer)rt->instruction_budget);
  }
  int ms = (int)atomic_load_explicit(&rt->budget_ms, memory_order_relaxed); // %d: lua_pushfstring has no %u
  if (rt->fast_budget_ms != 0) {
    luaL_error(L, "stopped after %d ms, to be measured again counting instructions", ms);
  }
  luaL_error(L, "time budget of %d ms exceeded", ms);
}
