#ifndef CLUASHIMS_INTERNAL_H
#define CLUASHIMS_INTERNAL_H
// Declarations shared by the shim's .c files, not exported to Swift.
#include <signal.h>

#include "CLuaShims.h"

/// Marks code that a signal handler runs: under ThreadSanitizer it is left uninstrumented,
/// since the signal may interrupt ThreadSanitizer's own runtime (thread_sanitizer.c).
#if WAYMARK_THREAD_SANITIZED
#define WAYMARK_SIGNAL_HANDLER_CODE __attribute__((disable_sanitizer_instrumentation))
#else
#define WAYMARK_SIGNAL_HANDLER_CODE
#endif
/// sigaction, past ThreadSanitizer's interceptor under ThreadSanitizer (thread_sanitizer.c).
int waymark_sigaction(int sig, const struct sigaction *action);
void *waymark_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
/// Watchdog registration (under its mutex; not per call).
void waymark_watchdog_register(waymark_runtime *rt);
void waymark_watchdog_unregister(waymark_runtime *rt);
/// Arms the budget hook on L (owner thread) if the current call timed out.
void waymark_arm_if_expired(waymark_runtime *rt, lua_State *L);
/// In exact counting, arms the counting hook on a thread entered during a call (a coroutine
/// made before the call has none).
void waymark_count_on(waymark_runtime *rt, lua_State *L);
/// Whether the running call has run past `budget_ns` (the watchdog asks each tick): by wall
/// time since it first saw the call, or, with fast instruction counting, by the calling
/// thread's CPU time (instructions.c), so a descheduled call is not stopped.
int waymark_call_ran_past(waymark_runtime *rt, uint64_t now, uint64_t budget_ns);
/// Records a line or call event for coverage (coverage.c).
void waymark_coverage_record(lua_State *L, lua_Debug *ar);
/// Publishes L as the running thread (the one the watchdog's signal handler arms).
void waymark_set_running(waymark_runtime *rt, lua_State *L);
/// Replaces coroutine.resume, coroutine.wrap and coroutine.close in the table on top.
void waymark_install_coroutine_wrappers(lua_State *L);
/// Replace functions of the library table on top with bounded versions: string.find, match,
/// gmatch, gsub, rep (pattern_lib.c, misc_lib.c); table.insert, remove, move, concat, unpack,
/// sort (table_lib.c); utf8.codes; load, collectgarbage and xpcall of the base library.
void waymark_install_pattern_functions(lua_State *L);
void waymark_install_string_functions(lua_State *L);
/// Replaces string.format in the string table on top with one that shows no addresses
/// (format_lib.c); its upvalue 2 is the renderer of `%s`, which the sandbox sets.
void waymark_install_format(lua_State *L);
void waymark_install_table_functions(lua_State *L);
void waymark_install_utf8_functions(lua_State *L);
void waymark_install_base_functions(lua_State *L);
/// lua_load from a reader function at `function` (its pieces kept alive at `anchor`), in
/// slices, like waymark_load.
int waymark_load_from_function(lua_State *L, int function, int anchor, const char *name, const char *mode);
/// Checks (and repairs) the function a text chunk compiled to, on top of the stack
/// (chunk_repair.c). Returns LUA_OK with the function, or an error status with the message.
int waymark_repair_chunk(lua_State *L, const char *name);
/// The traceback message handler.
int waymark_traceback(lua_State *L);

// MARK: - Swift functions and objects (trampoline.c, object_cache.c)

/// A retained Swift object owned by a full userdata.
typedef struct {
  void *box;
  waymark_release_function release;
} box_slot;

/// The upvalue of a Swift function: what to call and with which box.
typedef struct {
  box_slot slot;
  waymark_swift_function fn;
} function_slot;

/// The memory of an object userdata: the box, and what its field cache (a user value per
/// cached field) belongs to: the object's version when the cache was filled, and which
/// fields it holds (a bit each).
typedef struct {
  box_slot base;
  const struct field_cache *fields; ///< the type's cached fields (NULL: none)
  uint64_t seen;
  uint32_t filled;
} object_slot;

/// The cached fields of the object type of the metatable on top (object_cache.c), or NULL.
/// Stack: 0.
const struct field_cache *waymark_cached_fields_of_metatable(lua_State *L);
/// How many fields `fields` names: the user values each object of the type is made with.
int waymark_cached_field_count(const struct field_cache *fields);

/// Calls a Swift function as the trampoline does, from the C function running now: its
/// errors carry the position of this C function's Lua caller.
int waymark_call_swift(lua_State *L, function_slot *up);

// MARK: - Bounded C loops (budget.c)

/// Raises the budget's error if the running call was stopped; with exact instruction
/// counting, first counts `steps` units of C work as that many instructions (so a call
/// spending its time in C is stopped at the same point on every machine).
void waymark_check_budget(lua_State *L, size_t steps);
/// Counts `steps` as instructions of the running call in exact mode; raises past the
/// budget (instructions.c).
void waymark_count_steps(lua_State *L, waymark_runtime *rt, size_t steps);
/// Whether the running call of L's state has been stopped by its time or instruction budget.
int waymark_is_stopped(lua_State *L);
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
