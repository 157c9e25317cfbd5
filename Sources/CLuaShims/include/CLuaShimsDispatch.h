#ifndef CLUASHIMS_DISPATCH_H
#define CLUASHIMS_DISPATCH_H

// A call table prepared in C for one state (dispatch.c): handlers by slot, a fixed first
// argument, and a small cache of second arguments by key and identity, so that one C call
// pushes the traceback handler, the handler and both arguments from the registry, runs the
// protected call under the memory cap and the time and instruction budgets
// (waymark_call_begin/end) and reads back one boolean, with no Swift object touched.
//
// The table only copies registry indexes: its owner (LuaKit's LuaDispatchTable) keeps every
// reference alive, and closes the table before the state closes.

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
  WAYMARK_DISPATCH_ERROR = 4, ///< the call failed: the error value is on top (pop it)
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
} waymark_dispatch;

/// A table for the main thread L with `slots` empty slots and the first argument
/// `first_ref`. NULL when out of memory.
waymark_dispatch *waymark_dispatch_new(lua_State *L, int slots, int first_ref);
void waymark_dispatch_free(waymark_dispatch *d);

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
/// the time or instruction budget stopped the call, and the error value is left on top.
int waymark_dispatch_call(waymark_dispatch *d, int slot, size_t key, uintptr_t identity, int *status,
                          int *timed_out);
/// The same with the argument's registry reference given.
int waymark_dispatch_call_ref(waymark_dispatch *d, int slot, int ref, int *status, int *timed_out);

#endif
