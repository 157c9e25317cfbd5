#ifndef CLUASHIMS_RUNTIME_H
#define CLUASHIMS_RUNTIME_H

// Per-state runtime: the capped allocator's accounting and the watchdog's
// view of the running protected call. One per lua_State, passed as the
// allocator's userdata, so any thread of the state finds it through
// lua_getallocf.

#include <lua.h>
#include <signal.h>
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

  /// Blocks of at most 256 bytes, by size class (allocator.c; owner thread only).
  struct waymark_block_pool {
    void *free[16];      ///< each class's free blocks, linked through their first word
    char *next, *end;    ///< the part of the newest chunk not handed out yet
    void *chunks;        ///< every chunk, linked through its first word; freed at close
  } pool;

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
  _Atomic int caller_tid;       // the OS thread (Linux thread id) running that call
  _Atomic uint64_t signalled;   // generation whose watchdog signal is not handled yet

  // The outermost budgeted call of another state running below this one's on the same OS
  // thread (owner thread and its signal handler only).
  struct waymark_runtime *outer_on_thread;

  // Instruction budget (owner thread only; instructions.c).
  uint64_t instruction_budget; // per outermost call; 0 = none
  int exact_counting;          // 1: a count hook counts every instruction; 0: fast mode
  uint32_t fast_budget_ms;     // fast mode: the watchdog's budget (0 otherwise)
  _Atomic uint64_t fast_safe_ns; // fast mode: a call using less CPU cannot pass the budget
  uint64_t call_started_ns;    // fast mode: when the running outermost call began (wall)
  uint64_t baseline_wall_ns;   // fast mode: when baseline_cpu_ns was read (wall)
  _Atomic uint64_t baseline_cpu_ns; // fast mode: the calling thread's CPU time at or before
                                    // the call's start (read at most once a millisecond)
  _Atomic int caller_clock;    // fast mode: the CPU clock of the thread making the call
  uint64_t instructions;       // exact mode: counted in the running outermost call
  int instructions_exceeded;   // exact mode: the running call passed the budget
  int needs_exact_replay;      // fast mode: some call may have passed it (sticky)
  int hooked;                  // the per-call hook (counting, coverage) is armed

  // Watchdog private (under the watchdog mutex).
  uint64_t seen_generation;
  uint64_t seen_at_ns;
  uint64_t resignal_at_ns;  // no new signal for the expired call before then
  uint64_t resignal_gap_ns; // the wait after the last signal, doubled at each
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

/// The instruction budget's work at the start and end of an outermost call (instructions.c):
/// fast mode reads the clock, exact mode arms and removes the counting hook. End returns 1
/// when the instruction budget stopped the call.
void waymark_instructions_begin(waymark_runtime *rt, lua_State *L);
int waymark_instructions_end(waymark_runtime *rt, lua_State *L, uint64_t token);

/// Whether line coverage is recorded (coverage.c); read at the start of each outermost call.
extern _Atomic int waymark_coverage_on;

/// Whether this build runs under ThreadSanitizer (thread_sanitizer.c).
#if defined(__SANITIZE_THREAD__) || (defined(__has_feature) && __has_feature(thread_sanitizer))
#define WAYMARK_THREAD_SANITIZED 1
#else
#define WAYMARK_THREAD_SANITIZED 0
#endif

/// The realtime signal the watchdog sends to the OS thread running a call past its time
/// budget; its handler arms the stop on that thread's own running Lua thread. Hosts must
/// not use it, nor block it on threads that run plugins.
#define WAYMARK_WATCHDOG_SIGNAL (SIGRTMIN + 7)

/// The outermost budgeted calls running on one OS thread, innermost first, and the
/// thread's id (0 until its first call).
typedef struct {
  int tid;
  struct waymark_runtime *calls;
} waymark_thread_calls;
/// This OS thread's calls (initial-exec, so the signal handler may read it).
extern __thread waymark_thread_calls waymark_this_thread __attribute__((tls_model("initial-exec")));
/// Slow path of a thread's first budgeted call: installs the watchdog's signal handler
/// (once), unblocks its signal on this thread and returns the thread's id.
int waymark_thread_init(void);

/// Puts the starting outermost budgeted call of `rt` on this thread's list, where the
/// watchdog's signal handler finds it.
static inline void waymark_watch_push(waymark_runtime *rt) {
  waymark_thread_calls *thread = &waymark_this_thread;
  int tid = thread->tid != 0 ? thread->tid : waymark_thread_init();
  atomic_store_explicit(&rt->caller_tid, tid, memory_order_relaxed);
  rt->outer_on_thread = thread->calls;
  atomic_signal_fence(memory_order_seq_cst); // linked before it is listed
  thread->calls = rt;
  atomic_signal_fence(memory_order_seq_cst);
}

/// Takes the ending call of `rt` off this thread's list, before any hook is removed.
static inline void waymark_watch_pop(waymark_runtime *rt) {
  atomic_signal_fence(memory_order_seq_cst);
  waymark_this_thread.calls = rt->outer_on_thread;
  atomic_signal_fence(memory_order_seq_cst);
}

/// What a host protected call saved at its start for its end.
typedef struct {
  uint64_t token;      // the outermost budgeted call's generation; 0 for any other call
  int enforce;         // the memory cap's enforcement before the call
  lua_State *returner; // a nested call on a thread other than the running one: the running one
} waymark_call;

/// Slow path of a nested call's start: publishes `L`, the thread it runs on, as the running
/// thread (the watchdog arms the running one), arming it at once if the budget has run out.
void waymark_call_enter_thread(waymark_runtime *rt, lua_State *L);

/// Starts a host protected call on thread L. Cost: plain stores and relaxed atomic stores;
/// no clock, no lock, no syscall (unless an instruction budget is set, or the call is
/// nested on another thread than the running one: a handler called while a coroutine of
/// the state runs).
static inline void waymark_call_begin(waymark_runtime *rt, lua_State *L, waymark_call *call) {
  call->enforce = rt->enforce;
  call->token = 0;
  call->returner = NULL;
  rt->enforce = 1;
  if (rt->depth++ > 0) {
    lua_State *running = atomic_load_explicit(&rt->running, memory_order_relaxed);
    if (running != L) {
      call->returner = running;
      waymark_call_enter_thread(rt, L);
    }
    return;
  }
  if (rt->instruction_budget != 0 || atomic_load_explicit(&waymark_coverage_on, memory_order_relaxed)) {
    waymark_instructions_begin(rt, L);
  }
  atomic_store_explicit(&rt->running, L, memory_order_relaxed);
  uint32_t budget_ms = rt->fast_budget_ms != 0 ? rt->fast_budget_ms : rt->configured_budget_ms;
  if (budget_ms == 0) return;
  uint64_t g = ++rt->next_generation;
  waymark_watch_push(rt);
  atomic_store_explicit(&rt->budget_ms, budget_ms, memory_order_relaxed);
  atomic_store_explicit(&rt->generation, g, memory_order_relaxed);
  atomic_store_explicit(&rt->active, 1, memory_order_release);
  call->token = g;
}

/// Whether the running budgeted call has been stopped, by the watchdog or by the
/// instruction budget.
static inline int waymark_timed_out(waymark_runtime *rt) {
  return rt->instructions_exceeded ||
         (atomic_load_explicit(&rt->active, memory_order_relaxed) &&
          atomic_load_explicit(&rt->expired, memory_order_relaxed) ==
              atomic_load_explicit(&rt->generation, memory_order_relaxed));
}

/// Slow path of a nested call's end: hands the running thread back to `returner`, armed if
/// the budget ran out meanwhile.
void waymark_call_leave_thread(waymark_runtime *rt, lua_State *returner);

/// Ends a host protected call. Returns 1 if the watchdog stopped it (the
/// error on the stack is then a timeout), after removing the hook.
static inline int waymark_call_end(waymark_runtime *rt, lua_State *L, const waymark_call *call) {
  rt->enforce = call->enforce;
  rt->depth--;
  if (call->token != 0) waymark_watch_pop(rt);
  if (call->returner != NULL) waymark_call_leave_thread(rt, call->returner);
  int counted_out = 0;
  if (rt->depth == 0 && (rt->instruction_budget != 0 || rt->hooked)) {
    counted_out = waymark_instructions_end(rt, L, call->token);
  }
  if (call->token == 0) return counted_out || (rt->depth > 0 ? waymark_timed_out(rt) : 0);
  atomic_store_explicit(&rt->active, 0, memory_order_relaxed);
  if (atomic_load_explicit(&rt->expired, memory_order_relaxed) != call->token) return counted_out;
  waymark_watch_disarm(rt, L);
  return 1;
}

/// Sets the instruction budget of later outermost calls (0 = none). Exact: a count hook
/// counts every call's instructions and stops the one that passes the budget, at the same
/// instruction on every machine. Fast: nothing counts; a call that runs longer than the
/// budget could take at the fastest rate any machine runs Lua marks the state
/// (waymark_needs_exact_replay) for the caller to replay the whole run exactly.
void waymark_set_instruction_budget(waymark_runtime *rt, uint64_t instructions, int exact);
static inline uint64_t waymark_instruction_budget(waymark_runtime *rt) { return rt->instruction_budget; }
static inline int waymark_counts_exactly(waymark_runtime *rt) { return rt->exact_counting; }
static inline int waymark_needs_exact_replay(waymark_runtime *rt) { return rt->needs_exact_replay; }
/// Raises the error of the stopped call on L: the instruction or the time budget.
void waymark_raise_stop(lua_State *L, waymark_runtime *rt);

/// Whether a hook is installed on L (for tests: no hook stays armed).
static inline int waymark_has_hook(lua_State *L) { return lua_gethook(L) != NULL; }

#endif
