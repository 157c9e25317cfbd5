// The time-budget watchdog. Nothing runs in the normal path: a protected
// call only publishes (generation, active, the calling OS thread) with relaxed
// stores. One shared background thread ticks; when it sees the same call
// active past its budget it marks it expired and sends WAYMARK_WATCHDOG_SIGNAL
// to the OS thread running it. That thread's handler arms a count hook on its
// own running Lua thread, the one asynchronous lua_sethook Lua allows (lua.c
// does the same for SIGINT), so no other thread ever touches a running state.
// The hook raises on every instruction until the host's protected call has
// unwound, so a script's own pcall cannot swallow the timeout.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "CLuaShims.h"
#include "internal.h"

static pthread_mutex_t watchdog_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watchdog_wakeup;
static int watchdog_started = 0;
static waymark_runtime *watched = NULL; // list under watchdog_mutex

__thread waymark_thread_calls waymark_this_thread __attribute__((tls_model("initial-exec")));

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/// Whether the watchdog stopped the outermost call running now (atomics only: the signal
/// handler asks).
WAYMARK_SIGNAL_HANDLER_CODE static int expired_now(waymark_runtime *rt) {
  return atomic_load_explicit(&rt->active, memory_order_relaxed) &&
         atomic_load_explicit(&rt->expired, memory_order_relaxed) ==
             atomic_load_explicit(&rt->generation, memory_order_relaxed);
}

static void arm(lua_State *L);
static void start_watchdog_locked(void);

static void budget_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  waymark_runtime *rt = waymark_runtime_of(L);
  if (waymark_timed_out(rt)) {
    waymark_raise_stop(L, rt);
  } else {
    lua_sethook(L, NULL, 0, 0); // stale hook from an earlier call: disarm
    // The watchdog's signal may have come in the middle of that: arm again if so.
    if (waymark_timed_out(rt)) arm(L);
  }
}

enum { BUDGET_HOOK_MASK = LUA_MASKCOUNT | LUA_MASKCALL | LUA_MASKRET };

WAYMARK_SIGNAL_HANDLER_CODE static void arm(lua_State *L) { lua_sethook(L, budget_hook, BUDGET_HOOK_MASK, 1); }

/// Arms L unless its budget hook is armed already: lua_sethook marks every frame of the
/// thread, so on a stack a deep recursion built it costs milliseconds, and a handler that
/// paid it at every signal left the thread no time to reach the hook (issue 30).
WAYMARK_SIGNAL_HANDLER_CODE static void arm_unless_armed(lua_State *L) {
  if (lua_gethook(L) != budget_hook || lua_gethookmask(L) != BUDGET_HOOK_MASK) arm(L);
}

void waymark_arm_if_expired(waymark_runtime *rt, lua_State *L) {
  if (waymark_timed_out(rt)) arm(L);
}

/// The watchdog's signal, on the OS thread running the stopped call: arms the running Lua
/// thread of each expired call on this thread. It touches only this thread's list of
/// calls, atomics and lua_sethook, which Lua documents as safe in a signal handler. A
/// signal that comes after the call ended finds it off the list, or no longer expired.
WAYMARK_SIGNAL_HANDLER_CODE static void on_watchdog_signal(int sig, siginfo_t *info, void *context) {
  (void)sig, (void)info, (void)context;
  int saved_errno = errno;
  for (waymark_runtime *rt = waymark_this_thread.calls; rt != NULL; rt = rt->outer_on_thread) {
    if (expired_now(rt)) arm_unless_armed(atomic_load_explicit(&rt->running, memory_order_relaxed));
    atomic_store(&rt->signalled, 0); // handled, once armed: the watchdog may send again
  }
  errno = saved_errno;
}

static void install_signal_handler(void) {
  struct sigaction action;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  action.sa_sigaction = on_watchdog_signal;
  waymark_sigaction(WAYMARK_WATCHDOG_SIGNAL, &action);
}

/// A forked child's one thread is not its parent's: it learns its own id at its first call,
/// which also starts the child's own watchdog thread for the states it inherited.
static void forget_threads_in_child(void) {
  waymark_this_thread.tid = 0;
  watchdog_started = 0;
  pthread_mutex_unlock(&watchdog_mutex);
}

static void lock_for_fork(void) { pthread_mutex_lock(&watchdog_mutex); }
static void unlock_after_fork(void) { pthread_mutex_unlock(&watchdog_mutex); }

static void install_once(void) {
  install_signal_handler();
  pthread_atfork(lock_for_fork, unlock_after_fork, forget_threads_in_child);
}

int waymark_thread_init(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, install_once);
  // Threads of a dispatch queue (Swift concurrency's too) start with most signals blocked.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, WAYMARK_WATCHDOG_SIGNAL);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
  pthread_mutex_lock(&watchdog_mutex);
  if (watched != NULL) start_watchdog_locked();
  pthread_mutex_unlock(&watchdog_mutex);
  waymark_this_thread.tid = (int)syscall(SYS_gettid);
  return waymark_this_thread.tid;
}

void waymark_set_running(waymark_runtime *rt, lua_State *L) {
  // Only this OS thread's signal handler reads it, and it arms whichever it reads: the
  // thread left is armed again by waymark_arm_if_expired when it is entered.
  atomic_store_explicit(&rt->running, L, memory_order_relaxed);
}

void waymark_call_enter_thread(waymark_runtime *rt, lua_State *L) {
  waymark_set_running(rt, L);
  waymark_count_on(rt, L);
  waymark_arm_if_expired(rt, L); // after waymark_count_on: a stop armed meanwhile is kept
}

void waymark_call_leave_thread(waymark_runtime *rt, lua_State *returner) {
  waymark_set_running(rt, returner);
  waymark_arm_if_expired(rt, returner);
}

void waymark_watch_disarm(waymark_runtime *rt, lua_State *L) {
  // The call is off this thread's list: no signal arms anything of it any more.
  lua_sethook(L, NULL, 0, 0);
  if (rt->main != L) lua_sethook(rt->main, NULL, 0, 0);
}

// MARK: - The watchdog thread

static void inspect(waymark_runtime *rt, uint64_t now) {
  if (!atomic_load_explicit(&rt->active, memory_order_acquire)) {
    rt->seen_generation = 0;
    return;
  }
  uint64_t g = atomic_load_explicit(&rt->generation, memory_order_relaxed);
  if (g != rt->seen_generation) { // a call we have not seen yet: start its clock
    rt->seen_generation = g;
    rt->seen_at_ns = now;
    rt->resignal_at_ns = 0;
    rt->resignal_gap_ns = 0;
    return;
  }
  uint64_t budget_ns = (uint64_t)atomic_load_explicit(&rt->budget_ms, memory_order_relaxed) * 1000000u;
  if (!waymark_call_ran_past(rt, now, budget_ns)) return;
  // Marked, then signalled; again while the call has not unwound, but only once the last
  // signal was handled (realtime signals queue, and a thread that blocks this one must not
  // fill the process's queue, RLIMIT_SIGPENDING, with a signal a tick), and at intervals
  // that double from a tick to a second: a thread stopped in a long C step (liblua copying
  // a deep stack) spends its time finishing it, not in handlers (issue 30).
  int tid = atomic_load_explicit(&rt->caller_tid, memory_order_relaxed);
  atomic_store_explicit(&rt->expired, g, memory_order_relaxed);
  if (atomic_load(&rt->signalled) == g || now < rt->resignal_at_ns) return;
  uint64_t gap = rt->resignal_gap_ns == 0 ? budget_ns / 10 : rt->resignal_gap_ns * 2;
  rt->resignal_gap_ns = gap < 1000000u ? 1000000u : gap > 1000000000u ? 1000000000u : gap;
  rt->resignal_at_ns = now + rt->resignal_gap_ns;
  atomic_store(&rt->signalled, g);
  // A thread id, not a pthread_t: a thread that has ended since is an error (ESRCH), not
  // undefined behaviour, and any thread of ours the id might name meanwhile finds no
  // expired call of its own. The handler decides with the atomics it reads itself.
  if (syscall(SYS_tgkill, getpid(), tid, WAYMARK_WATCHDOG_SIGNAL) != 0) atomic_store(&rt->signalled, 0);
}

static void *watchdog_main(void *unused) {
  (void)unused;
  pthread_mutex_lock(&watchdog_mutex);
  for (;;) {
    if (watched == NULL) {
      pthread_cond_wait(&watchdog_wakeup, &watchdog_mutex);
      continue;
    }
    uint64_t now = now_ns();
    uint64_t tick_ns = 1000000000u;
    for (waymark_runtime *rt = watched; rt != NULL; rt = rt->next) {
      inspect(rt, now);
      uint64_t budget_ns = (uint64_t)atomic_load_explicit(&rt->budget_ms, memory_order_relaxed) * 1000000u;
      uint64_t t = budget_ns / 10;
      if (t < 1000000u) t = 1000000u;
      if (t < tick_ns) tick_ns = t;
    }
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    uint64_t ns = (uint64_t)until.tv_nsec + tick_ns;
    until.tv_sec += (time_t)(ns / 1000000000u);
    until.tv_nsec = (long)(ns % 1000000000u);
    int rc;
    do {
      rc = pthread_cond_timedwait(&watchdog_wakeup, &watchdog_mutex, &until);
    } while (rc == 0 && watched != NULL); // woken by (un)registration: keep the tick
  }
  return NULL;
}

/// Starts the watchdog thread if it is not running (under watchdog_mutex): at the first
/// registration, and in a forked child, whose copy of the list has no thread to tick it.
static void start_watchdog_locked(void) {
  if (watchdog_started) return;
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_init(&watchdog_wakeup, &attr);
  pthread_condattr_destroy(&attr);
  pthread_t thread;
  pthread_attr_t thread_attr;
  pthread_attr_init(&thread_attr);
  pthread_attr_setdetachstate(&thread_attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&thread, &thread_attr, watchdog_main, NULL) == 0) watchdog_started = 1;
  pthread_attr_destroy(&thread_attr);
}

void waymark_watchdog_register(waymark_runtime *rt) {
  pthread_mutex_lock(&watchdog_mutex);
  start_watchdog_locked();
  if (!rt->registered) {
    rt->next = watched;
    watched = rt;
    rt->registered = 1;
    pthread_cond_signal(&watchdog_wakeup);
  }
  pthread_mutex_unlock(&watchdog_mutex);
}

void waymark_watchdog_unregister(waymark_runtime *rt) {
  if (!rt->registered) return;
  pthread_mutex_lock(&watchdog_mutex);
  for (waymark_runtime **p = &watched; *p != NULL; p = &(*p)->next) {
    if (*p == rt) {
      *p = rt->next;
      break;
    }
  }
  rt->registered = 0;
  pthread_mutex_unlock(&watchdog_mutex);
}
