// The time-budget watchdog. Nothing runs in the normal path: a protected
// call only publishes (generation, active) with relaxed stores. One shared
// background thread ticks; when it sees the same call active past its
// budget it arms a count hook on the running Lua thread. The hook raises on
// every instruction until the host's protected call has unwound, so a
// script's own pcall cannot swallow the timeout.
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "CLuaShims.h"
#include "internal.h"

static pthread_mutex_t watchdog_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watchdog_wakeup;
static int watchdog_started = 0;
static waymark_runtime *watched = NULL; // list under watchdog_mutex

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void budget_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  waymark_runtime *rt = waymark_runtime_of(L);
  if (waymark_timed_out(rt)) {
    waymark_raise_stop(L, rt);
  } else {
    lua_sethook(L, NULL, 0, 0); // stale hook from an earlier call: disarm
  }
}

static void arm(lua_State *L) {
  lua_sethook(L, budget_hook, LUA_MASKCOUNT | LUA_MASKCALL | LUA_MASKRET, 1);
}

void waymark_arm_if_expired(waymark_runtime *rt, lua_State *L) {
  if (waymark_timed_out(rt)) arm(L);
}

void waymark_set_running(waymark_runtime *rt, lua_State *L) {
  atomic_store(&rt->running, L); // seq_cst: pairs with the watchdog's busy flag
  while (atomic_load(&rt->busy)) sched_yield();
  // From here the watchdog can no longer touch the previous thread, which
  // may be collected once the resume wrapper returns.
}

void waymark_call_enter_thread(waymark_runtime *rt, lua_State *L) {
  waymark_set_running(rt, L);
  waymark_count_on(rt, L);
  waymark_arm_if_expired(rt, L);
}

void waymark_call_leave_thread(waymark_runtime *rt, lua_State *left, lua_State *returner) {
  waymark_set_running(rt, returner);
  // A dispatch table's thread is entered only while idle, so nothing of the call runs on
  // it any more: its hooks (counting, or the stop) go now, not at the next call on it.
  if (waymark_is_dispatch_thread(left)) lua_sethook(left, NULL, 0, 0);
  waymark_arm_if_expired(rt, returner);
}

void waymark_watch_disarm(waymark_runtime *rt, lua_State *L) {
  while (atomic_load(&rt->busy)) sched_yield(); // the watchdog may still be arming
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
    return;
  }
  uint64_t budget_ns = (uint64_t)atomic_load_explicit(&rt->budget_ms, memory_order_relaxed) * 1000000u;
  if (!waymark_call_ran_past(rt, now, budget_ns)) return;
  if (atomic_load_explicit(&rt->expired, memory_order_relaxed) == g) return; // already armed
  atomic_store(&rt->busy, 1);
  if (atomic_load(&rt->active) && atomic_load(&rt->generation) == g) {
    atomic_store(&rt->expired, g);
    arm(atomic_load(&rt->running)); // lua_sethook is safe asynchronously
  }
  atomic_store(&rt->busy, 0);
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

void waymark_watchdog_register(waymark_runtime *rt) {
  pthread_mutex_lock(&watchdog_mutex);
  if (!watchdog_started) {
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

void waymark_set_budget(waymark_runtime *rt, uint32_t ms) {
  rt->configured_budget_ms = ms;
  if (ms != 0) waymark_watchdog_register(rt);
}
