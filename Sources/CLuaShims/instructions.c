// The instruction budget: a count of Lua VM instructions per outermost host call, so the
// verdict on a slow handler is the same on every machine, however loaded.
//
// Counting costs: in Lua 5.4 any count hook sends every instruction through
// luaG_traceexec (about 2.2x on a tight loop). So there are two modes:
// - exact: a count hook every PERIOD instructions adds them up and stops the call that
//   passes the budget, at the same instruction on every machine;
// - fast: nothing is counted. A call that ends sooner than budget / MAX_RATE seconds cannot
//   have run more instructions than the budget on any machine, so its verdict ("within
//   budget") is exact. A call that lasts longer is not judged: the state is marked
//   (needs_exact_replay) and the watchdog stops it if it goes on; the caller then replays
//   the whole deterministic run in exact mode, whose verdicts are the ones reported.
// "Sooner" is measured in CPU time of the calling thread, so a descheduled call is not
// suspected: an upper bound of it without a system call on the hot path is the thread's
// CPU clock at the end (read only for a call whose wall time passed the safe time) minus
// its CPU clock at or before the start, read at most once a millisecond. A loaded machine
// only makes calls last longer, which may cost a replay, never a verdict.
#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>

#include "CLuaShims.h"
#include "internal.h"

/// Instructions between two calls of the counting hook.
enum { PERIOD = 1000 };

/// More Lua VM instructions per second than any machine runs (this project's 2025 machine
/// runs about 7e8 of the simplest ones; the fastest cores about 2e9).
static const double MAX_RATE = 1e10;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/// The CPU time of the thread whose CPU clock is `clock`, or 0 if it cannot be read.
static uint64_t cpu_ns(clockid_t clock) {
  struct timespec ts;
  if (clock_gettime(clock, &ts) != 0) return 0;
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void count_hook(lua_State *L, lua_Debug *ar);

/// Arms the per-call hook on L with what the running call needs: instruction counting
/// (exact mode) and line coverage (when on). Returns whether it armed anything.
static int arm_counting(waymark_runtime *rt, lua_State *L) {
  int mask = (rt->exact_counting && rt->instruction_budget != 0 ? LUA_MASKCOUNT : 0) |
             (atomic_load_explicit(&waymark_coverage_on, memory_order_relaxed) ? LUA_MASKLINE | LUA_MASKCALL : 0);
  if (mask != 0) lua_sethook(L, count_hook, mask, PERIOD);
  return mask != 0;
}

static void count_hook(lua_State *L, lua_Debug *ar) {
  waymark_runtime *rt = waymark_runtime_of(L);
  if (waymark_timed_out(rt)) waymark_raise_stop(L, rt); // stopped: raise until unwound
  if (ar->event != LUA_HOOKCOUNT) {
    waymark_coverage_record(L, ar);
    return;
  }
  if (rt->depth == 0 || !rt->exact_counting || rt->instruction_budget == 0) return;
  rt->instructions += PERIOD;
  if (rt->instructions <= rt->instruction_budget) return;
  rt->instructions_exceeded = 1;
  // From here every instruction, call and return raises, so the call's own pcall cannot
  // swallow the stop; waymark_instructions_end removes the hook.
  lua_sethook(L, count_hook, LUA_MASKCOUNT | LUA_MASKCALL | LUA_MASKRET, 1);
  waymark_raise_stop(L, rt);
}

void waymark_count_steps(lua_State *L, waymark_runtime *rt, size_t steps) {
  if (!rt->exact_counting || rt->instruction_budget == 0 || rt->depth == 0 || rt->instructions_exceeded) return;
  rt->instructions += steps;
  if (rt->instructions <= rt->instruction_budget) return;
  rt->instructions_exceeded = 1;
  lua_sethook(L, count_hook, LUA_MASKCOUNT | LUA_MASKCALL | LUA_MASKRET, 1); // as count_hook does
  waymark_raise_stop(L, rt);
}

void waymark_count_on(waymark_runtime *rt, lua_State *L) {
  if (rt->hooked && rt->depth > 0 && lua_gethook(L) != count_hook) arm_counting(rt, L);
}

void waymark_instructions_begin(waymark_runtime *rt, lua_State *L) {
  rt->instructions = 0;
  rt->instructions_exceeded = 0;
  rt->hooked = arm_counting(rt, L);
  if (rt->instruction_budget != 0 && !rt->exact_counting) {
    uint64_t now = now_ns();
    if (now - rt->baseline_wall_ns >= 1000000u || rt->baseline_wall_ns == 0) {
      clockid_t clock;
      if (pthread_getcpuclockid(pthread_self(), &clock) != 0) clock = CLOCK_THREAD_CPUTIME_ID;
      atomic_store_explicit(&rt->caller_clock, (int)clock, memory_order_relaxed);
      atomic_store_explicit(&rt->baseline_cpu_ns, cpu_ns(CLOCK_THREAD_CPUTIME_ID), memory_order_relaxed);
      rt->baseline_wall_ns = now;
    }
    rt->call_started_ns = now;
  }
}

/// An upper bound of the CPU time the running fast-counted call has used: the thread's CPU
/// clock (`clock`) now minus its reading at or before the call's start; UINT64_MAX if it
/// cannot be read.
static uint64_t cpu_used_bound(waymark_runtime *rt, clockid_t clock) {
  uint64_t cpu = cpu_ns(clock), baseline = atomic_load_explicit(&rt->baseline_cpu_ns, memory_order_relaxed);
  return cpu == 0 || cpu < baseline ? UINT64_MAX : cpu - baseline;
}

int waymark_call_ran_past(waymark_runtime *rt, uint64_t now, uint64_t budget_ns) {
  if (atomic_load_explicit(&rt->fast_safe_ns, memory_order_relaxed) == 0) return now - rt->seen_at_ns >= budget_ns;
  return cpu_used_bound(rt, (clockid_t)atomic_load_explicit(&rt->caller_clock, memory_order_relaxed)) >= budget_ns;
}

int waymark_instructions_end(waymark_runtime *rt, lua_State *L, uint64_t token) {
  if (rt->instruction_budget != 0 && !rt->exact_counting) {
    uint64_t safe = atomic_load_explicit(&rt->fast_safe_ns, memory_order_relaxed);
    if (now_ns() - rt->call_started_ns >= safe && cpu_used_bound(rt, CLOCK_THREAD_CPUTIME_ID) >= safe) {
      rt->needs_exact_replay = 1;
    }
    if (token != 0 && atomic_load_explicit(&rt->expired, memory_order_relaxed) == token) rt->needs_exact_replay = 1;
  }
  if (!rt->hooked && !rt->instructions_exceeded) return 0;
  rt->hooked = 0;
  int exceeded = rt->instructions_exceeded;
  rt->instructions_exceeded = 0;
  lua_sethook(L, NULL, 0, 0);
  if (rt->main != L) lua_sethook(rt->main, NULL, 0, 0);
  return exceeded;
}

int waymark_configure_instructions(waymark_runtime *rt, uint64_t instructions, int exact) {
  rt->instruction_budget = instructions;
  rt->exact_counting = instructions != 0 && exact;
  rt->fast_budget_ms = 0;
  atomic_store(&rt->fast_safe_ns, 0);
  if (instructions == 0 || exact) return 0;
  double safe_seconds = (double)instructions / MAX_RATE;
  uint64_t safe_ns = (uint64_t)(safe_seconds * 1e9);
  atomic_store(&rt->fast_safe_ns, safe_ns < 1 ? 1 : safe_ns);
  // The watchdog stops a call whose CPU time passes the safe time (its verdict comes from
  // the replay); it ticks a tenth of that, so it sees most calls early.
  double ms = safe_seconds * 1e3;
  rt->fast_budget_ms = ms < 1 ? 1 : ms > 4e9 ? 4000000000u : (uint32_t)ms;
  return 1;
}
