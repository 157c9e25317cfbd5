#ifndef CLUASHIMS_DISPATCH_H
#define CLUASHIMS_DISPATCH_H

// A call table prepared in C for one state (dispatch.c): handlers by slot, a fixed first
// argument, and a small cache of second arguments by key and identity, so that one C call
// pushes the traceback handler, the handler and both arguments, runs the protected call
// under the memory cap and the time and instruction budgets (waymark_call_begin/end) and
// reads back one boolean, with no Swift object touched.
//
// The table copies registry indexes: its owner (LuaKit's LuaDispatchTable) keeps every
// reference alive, and closes the table before the state closes. Every call runs on the
// state's main thread, as any Lua host runs its callbacks.

#include <lauxlib.h>
#include <lua.h>
#include <stddef.h>
#include <stdint.h>

/// What waymark_dispatch_call returns.
enum {
  WAYMARK_DISPATCH_FALSE = 0, ///< the handler returned false
  WAYMARK_DISPATCH_TRUE = 1,  ///< the handler returned true
  WAYMARK_DISPATCH_NIL = 2,   ///< nil or nothing
  WAYMARK_DISPATCH_MISS = 3,  ///< the argument's key is not cached: nothing was called
  WAYMARK_DISPATCH_ERROR = 4, ///< the call failed: the error value is on top of L (pop it)
  WAYMARK_DISPATCH_OTHER = 16 ///< plus the Lua type of any other value returned
};

/// Entries of the argument cache (a power of two): keys are taken modulo this.
enum { WAYMARK_DISPATCH_CACHE = 256 };

typedef struct waymark_dispatch_entry {
  uintptr_t identity; ///< 0: empty
  int ref;
} waymark_dispatch_entry;

typedef struct waymark_dispatch {
  lua_State *L; ///< the main thread
  struct waymark_runtime *rt;
  int open;      ///< 0 once closed: every call answers "no handler"
  int first_ref; ///< the first argument of every call
  int slot_count;
  int *slots; ///< handler references by slot; LUA_NOREF: none
  waymark_dispatch_entry *cache; ///< NULL until the first entry
  long failures;             ///< the owner's count of every failure (read by the order's loop)
  long consecutive_failures; ///< the owner's count since the last success (reset by the loop)
} waymark_dispatch;

/// A table for the main thread L with `slots` empty slots and the first argument
/// `first_ref`. NULL when out of memory.
waymark_dispatch *waymark_dispatch_new(lua_State *L, int slots, int first_ref);
void waymark_dispatch_free(waymark_dispatch *d);

/// Makes `ref` (LUA_NOREF: none) the handler of `slot`.
void waymark_dispatch_set_slot(waymark_dispatch *d, int slot, int ref);
/// Closes the table: from now on no slot has a handler.
void waymark_dispatch_close(waymark_dispatch *d);

/// Whether slot `slot` has a handler and the table is open.
static inline int waymark_dispatch_has(const waymark_dispatch *d, int slot) {
  return d->open && d->slots[slot] != LUA_NOREF;
}

/// Caches `ref` as the second argument for `key` and `identity` (nonzero). Returns 0 when
/// the cache cannot be allocated (nothing is cached then).
int waymark_dispatch_remember(waymark_dispatch *d, size_t key, uintptr_t identity, int ref);

/// Calls the handler of `slot` (which must have one) as handler(first, argument) with the
/// argument cached for `key` and `identity`; WAYMARK_DISPATCH_MISS when none is. On
/// WAYMARK_DISPATCH_ERROR, `*status` is the status of lua_pcall and `*timed_out` whether
/// the time or instruction budget stopped the call, and the error value is left on top of
/// L (pop it).
int waymark_dispatch_call(waymark_dispatch *d, int slot, size_t key, uintptr_t identity, int *status,
                          int *timed_out);
/// The same with the argument's registry reference given.
int waymark_dispatch_call_ref(waymark_dispatch *d, int slot, int ref, int *status, int *timed_out);


// MARK: - An ordered list of tables (dispatch.c)

/// One snapshot of the order: the tables and their owners' opaque pointers, in asking order.
/// It stays allocated while a loop may still walk it (waymark_order_enter/leave).
typedef struct waymark_dispatch_list {
  int count;
  struct waymark_dispatch_list *retired; ///< an older list still walked by a loop
  waymark_dispatch **tables;
  void **owners;
} waymark_dispatch_list;

/// The tables of several states asked in turn, with the nesting depth of their calls.
typedef struct waymark_dispatch_order {
  waymark_dispatch_list *list; ///< never NULL
  int depth;     ///< nesting of calls made through the order (the owner counts its own too)
  int max_depth; ///< a call at this depth is not made: WAYMARK_ORDER_NESTED
  int walkers;   ///< loops between waymark_order_enter and waymark_order_leave
  int stop_status;    ///< the last WAYMARK_ORDER_ERROR: the status of lua_pcall
  int stop_timed_out; ///< the last WAYMARK_ORDER_ERROR: whether a budget stopped the call
  int stop_type;      ///< the last WAYMARK_ORDER_OTHER: the Lua type returned
} waymark_dispatch_order;

/// What waymark_dispatch_first_true stopped at, beside the index of the table.
enum {
  WAYMARK_ORDER_NONE = 0,   ///< every table was asked: no handler returned true
  WAYMARK_ORDER_TRUE = 1,   ///< the table at `index` returned true
  WAYMARK_ORDER_ERROR = 2,  ///< its call failed: the error value is on top of its L
  WAYMARK_ORDER_OTHER = 3,  ///< it returned a value of Lua type `type`, not a boolean or nil
  WAYMARK_ORDER_MISS = 4,   ///< it has a handler but no cached argument: nothing was called
  WAYMARK_ORDER_NESTED = 5  ///< it has a handler but the depth is max_depth: nothing was called
};

/// An empty order whose calls nest at most `max_depth` deep. NULL when out of memory.
waymark_dispatch_order *waymark_order_new(int max_depth);
void waymark_order_free(waymark_dispatch_order *o);
/// Makes `tables` (with `owners`, `count` of each) the order's list; the old list is freed
/// now, or once no loop walks it. Returns 0 when out of memory (the list is unchanged).
int waymark_order_set(waymark_dispatch_order *o, waymark_dispatch *const *tables, void *const *owners, int count);

/// The list a loop walks from now until waymark_order_leave, even if the order changes.
static inline waymark_dispatch_list *waymark_order_enter(waymark_dispatch_order *o) {
  o->walkers++;
  return o->list;
}
/// Frees the retired lists once the last loop has left; returns 1 when there were some
/// (their owners' holder may let them go).
int waymark_order_release_retired(waymark_dispatch_order *o);
static inline int waymark_order_leave(waymark_dispatch_order *o) {
  return --o->walkers == 0 && o->list->retired != NULL ? waymark_order_release_retired(o) : 0;
}

/// The veto loop: from `start`, calls the handler of `slot` of each open table of `list`
/// that has one as handler(first, argument), the argument cached for `key` and `identity`,
/// under the depth limit, until one returns true. A call whose answer is a boolean or nil
/// resets that table's consecutive_failures, unless its failures changed during the call
/// (a nested call failed); then its answer is ignored. Stops, without going on, at the
/// first true, error, other value, missing argument or refused nesting. Returns the
/// WAYMARK_ORDER_* code plus 8 times the index of the table it stopped at (the list's count
/// for WAYMARK_ORDER_NONE); the details of an error or another value are in stop_*.
long waymark_dispatch_first_true(waymark_dispatch_order *o, const waymark_dispatch_list *list, int start, int slot,
                                 size_t key, uintptr_t identity);

#endif
