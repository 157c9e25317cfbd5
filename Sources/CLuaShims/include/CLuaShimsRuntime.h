#ifndef CLUASHIMS_RUNTIME_H
#define CLUASHIMS_RUNTIME_H

// Per-state runtime: the capped allocator's accounting and the watchdog's
// view of the running protected call. One per lua_State, passed as the
// allocator's userdata, so any thread of the state finds it through
// lua_getallocf.

#include <lua.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

typedef struct waymark_runtime {
  lua_State *main;
  /// Registry reference of the traceback message handler.
  int msgh_ref;
  /// Opaque pointer back to the Swift owner (unretained).
  void *host;

  // Capped allocator (touched only by the thread that owns the state).
  size_t in_use;
  size_t limit; // 0 = no cap
  size_t peak;
  /// 1 while Lua code runs under a host protected call: the cap applies.
  /// 0 while host or Swift code runs: they must never see a memory error
  /// longjmp across their frames.
  int enforce;

  // Host call bookkeeping (owner thread only).
  int depth;                    // nesting of host protected calls
  uint64_t next_generation;     // last generation handed out
  uint32_t configured_budget_ms; // 0 = no budget
  int registered;               // known to the watchdog

  // Shared with the watchdog thread.
  _Atomic uint64_t generation; // of the outermost budgeted call
  _Atomic int active;          // 1 while that call runs
  _Atomic uint32_t budget_ms;
  _Atomic(lua_State *) running; // the thread currently executing Lua
  _Atomic uint64_t expired;     // generation the watchdog stopped
  _Atomic int busy;             // watchdog is arming a hook right now

  // Watchdog private (under the watchdog mutex).
  uint64_t seen_generation;
  uint64_t seen_at_ns;
  struct waymark_runtime *next;
} waymark_runtime;

/// The runtime of any thread (coroutine) of a state opened by waymark_open.
static inline waymark_runtime *waymark_runtime_of(lua_State *L) {
  void *ud = NULL;
  (void)lua_getallocf(L, &ud);
  return (waymark_runtime *)ud;
}

static inline lua_State *waymark_main(waymark_runtime *rt) { return rt->main; }
static inline int waymark_msgh_ref(waymark_runtime *rt) { return rt->msgh_ref; }
static inline void *waymark_host(waymark_runtime *rt) { return rt->host; }
static inline void waymark_set_host(waymark_runtime *rt, void *host) { rt->host = host; }
static inline size_t waymark_memory_in_use(waymark_runtime *rt) { return rt->in_use; }
static inline size_t waymark_memory_peak(waymark_runtime *rt) { return rt->peak; }
static inline void waymark_reset_peak(waymark_runtime *rt) { rt->peak = rt->in_use; }
static inline size_t waymark_memory_limit(waymark_runtime *rt) { return rt->limit; }
static inline void waymark_set_memory_limit(waymark_runtime *rt, size_t limit) { rt->limit = limit; }

/// Sets the time budget of later outermost protected calls (0 = none) and
/// registers the state with the watchdog (starting it) the first time.
void waymark_set_budget(waymark_runtime *rt, uint32_t ms);
static inline uint32_t waymark_budget(waymark_runtime *rt) { return rt->configured_budget_ms; }

/// Slow path of waymark_call_end: removes the hook left on `L`.
void waymark_watch_disarm(waymark_runtime *rt, lua_State *L);

/// Starts a host protected call on thread L. Returns a token for
/// waymark_call_end. Cost: plain stores and relaxed atomic stores; no clock,
/// no lock, no syscall.
static inline uint64_t waymark_call_begin(waymark_runtime *rt, lua_State *L, int *saved_enforce) {
  *saved_enforce = rt->enforce;
  rt->enforce = 1;
  if (rt->depth++ > 0 || rt->configured_budget_ms == 0) return 0;
  uint64_t g = ++rt->next_generation;
  atomic_store_explicit(&rt->budget_ms, rt->configured_budget_ms, memory_order_relaxed);
  atomic_store_explicit(&rt->running, L, memory_order_relaxed);
  atomic_store_explicit(&rt->generation, g, memory_order_relaxed);
  atomic_store_explicit(&rt->active, 1, memory_order_release);
  return g;
}

/// Whether the running budgeted call has been stopped by the watchdog.
static inline int waymark_timed_out(waymark_runtime *rt) {
  return atomic_load_explicit(&rt->active, memory_order_relaxed) &&
         atomic_load_explicit(&rt->expired, memory_order_relaxed) ==
             atomic_load_explicit(&rt->generation, memory_order_relaxed);
}

/// Ends a host protected call. Returns 1 if the watchdog stopped it (the
/// error on the stack is then a timeout), after removing the hook.
static inline int waymark_call_end(waymark_runtime *rt, lua_State *L, uint64_t token, int saved_enforce) {
  rt->enforce = saved_enforce;
  rt->depth--;
  if (token == 0) return rt->depth > 0 ? waymark_timed_out(rt) : 0;
  atomic_store_explicit(&rt->active, 0, memory_order_relaxed);
  if (atomic_load_explicit(&rt->expired, memory_order_relaxed) != token) return 0;
  waymark_watch_disarm(rt, L);
  return 1;
}

/// Whether a hook is installed on L (for tests: no hook stays armed).
static inline int waymark_has_hook(lua_State *L) { return lua_gethook(L) != NULL; }

#endif
