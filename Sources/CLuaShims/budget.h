#ifndef CLUASHIMS_BUDGET_H
#define CLUASHIMS_BUDGET_H
// The budget, in four layers. A file calls only the layers listed before its own, never one
// after it (ShimLayoutTests checks the calls; docs/architecture.md, "The C shim"):
//
//   stop.c          what a stopped call raises, and whether a call is stopped
//   instructions.c  the instruction budget: counting, and the CPU-time bound of fast mode
//   watchdog.c      the timer thread, its signal, and the hook it arms on a late call
//   budget.c        the budget's face: setting budgets, and the checks of C loops
//
// The public part (setting budgets, a call's start and end, the thread's list of calls) is
// in include/CLuaShimsRuntime.h; this header declares what the shim's own files share.
#include "CLuaShims.h"

// MARK: - stop.c

/// The runtime of L if the shim opened its state (the allocator is the capped one), else NULL.
waymark_runtime *waymark_runtime_if_ours(lua_State *L);
/// Whether the running call of L's state has been stopped by its time or instruction budget.
int waymark_is_stopped(lua_State *L);
// waymark_raise_stop is public (CLuaShimsRuntime.h).

// MARK: - instructions.c

/// Sets the instruction budget of `rt` (see waymark_set_instruction_budget); returns whether
/// the watchdog must watch the state (fast mode).
int waymark_configure_instructions(waymark_runtime *rt, uint64_t instructions, int exact);
/// Counts `steps` as instructions of the running call in exact mode; raises past the budget.
void waymark_count_steps(lua_State *L, waymark_runtime *rt, size_t steps);
/// In exact counting, arms the counting hook on a thread entered during a call (a coroutine
/// made before the call has none).
void waymark_count_on(waymark_runtime *rt, lua_State *L);
/// Whether the running call has run past `budget_ns` (the watchdog asks each tick): by wall
/// time since it first saw the call, or, with fast instruction counting, by the calling
/// thread's CPU time, so a descheduled call is not stopped.
int waymark_call_ran_past(waymark_runtime *rt, uint64_t now, uint64_t budget_ns);

// MARK: - watchdog.c

/// Watchdog registration (under its mutex; not per call).
void waymark_watchdog_register(waymark_runtime *rt);
void waymark_watchdog_unregister(waymark_runtime *rt);
/// Arms the budget hook on L (owner thread) if the current call timed out.
void waymark_arm_if_expired(waymark_runtime *rt, lua_State *L);
/// Publishes L as the running thread (the one the watchdog's signal handler arms).
void waymark_set_running(waymark_runtime *rt, lua_State *L);

// MARK: - budget.c

/// Raises the budget's error if the running call was stopped; with exact instruction
/// counting, first counts `steps` units of C work as that many instructions (so a call
/// spending its time in C is stopped at the same point on every machine).
void waymark_check_budget(lua_State *L, size_t steps);
/// Raises "C stack overflow" when less than a safe reserve of the thread's C stack is left.
void waymark_check_cstack(lua_State *L);

/// Steps a C loop may take between two checks of the budget (a check is three atomic loads).
enum { WAYMARK_STEPS_PER_CHECK = 4096 };
/// Counts the steps of one C function's loops.
typedef struct {
  size_t pending; // steps since the last check
} waymark_step_counter;
#define WAYMARK_STEP_COUNTER {0}

/// Counts `steps` units of work; every WAYMARK_STEPS_PER_CHECK of them, checks the budget.
static inline void waymark_steps(lua_State *L, waymark_step_counter *counter, size_t steps) {
  counter->pending += steps;
  if (counter->pending < WAYMARK_STEPS_PER_CHECK) return;
  size_t done = counter->pending;
  counter->pending = 0;
  waymark_check_budget(L, done);
}
#endif
