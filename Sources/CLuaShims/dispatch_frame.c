// The thread of a dispatch table. A handler is called with the traceback handler, itself and
// two arguments on the stack; read from the registry, they cost three table lookups per
// call. The table's own thread keeps them instead at fixed places at the bottom of its stack
// (the frame), so a call on it pushes three copies. Only the table's calls use the thread,
// and only one at a time: a call of the table made while another runs on the thread (a
// handler whose map change calls the same plugin) is made on the main thread, the old way.
// A change made meanwhile (a handler set, an argument learnt) is copied to the frame before
// the next call on the thread.
//
// What it buys: 171 instructions of a lua_dispatch call (1,270 against the C floor's 908,
// 1.40x; every call on the main thread: 1,441, 1.59x, over the benchmark's 1.5x goal;
// callgrind, docs/performance.md). The watchdog's per-thread list has added 18 to both
// since (1,292, 1.42x).
//
// Scripts can reach the thread (coroutine.running() inside a handler); the coroutine
// wrappers refuse to resume or close it, as they would the main thread.
#include "CLuaShims.h"
#include "internal.h"

/// What the extra space of a dispatch table's thread holds (other threads hold a copy of
/// the main thread's).
static char dispatch_thread_tag;

int waymark_is_dispatch_thread(lua_State *L) { return *(void **)lua_getextraspace(L) == &dispatch_thread_tag; }

/// Protected part of waymark_dispatch_make_thread: allocates, so it may raise.
static int make_thread(lua_State *L) {
  waymark_dispatch *d = (waymark_dispatch *)lua_touserdata(L, 1);
  lua_State *thread = lua_newthread(L);
  *(void **)lua_getextraspace(thread) = &dispatch_thread_tag;
  d->thread_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  d->thread = thread;
  return 0;
}

void waymark_dispatch_make_thread(waymark_dispatch *d) {
  lua_State *L = d->L;
  if (!lua_checkstack(L, 2)) return;
  lua_pushcfunction(L, make_thread);
  lua_pushlightuserdata(L, d);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    lua_pop(L, 1); // out of memory: every call is made on the main thread
    d->thread = NULL;
  }
}

/// Pushes the value of registry reference `ref` (nil for none) on `thread`. Stack: +1.
static void push_ref(lua_State *thread, int ref) {
  if (ref == LUA_NOREF || ref == LUA_REFNIL) {
    lua_pushnil(thread);
  } else {
    lua_rawgeti(thread, LUA_REGISTRYINDEX, ref);
  }
}

/// Lays out the frame on the idle thread. Returns 0 if its stack cannot grow to hold it.
static int build_frame(waymark_dispatch *d) {
  lua_State *thread = d->thread;
  lua_settop(thread, 0);
  d->framed = 0;
  // The frame, then room for a call's three values and an entry's copy.
  if (!lua_checkstack(thread, waymark_frame_argument(d, WAYMARK_DISPATCH_CACHE) + 4)) return 0;
  lua_pushcfunction(thread, waymark_traceback);
  push_ref(thread, d->first_ref);
  for (int slot = 0; slot < d->slot_count; slot++) push_ref(thread, d->slots[slot]);
  for (int e = 0; e < WAYMARK_DISPATCH_CACHE; e++) {
    waymark_dispatch_entry *entry = d->cache != NULL ? &d->cache[e] : NULL;
    push_ref(thread, entry != NULL && entry->identity != 0 ? entry->ref : LUA_NOREF);
    if (entry != NULL) entry->framed = 1;
  }
  d->framed = 1;
  return 1;
}

int waymark_dispatch_frame_ready(waymark_dispatch *d, waymark_dispatch_entry *entry) {
  if (d->thread == NULL || d->busy != 0) return 0;
  if (!d->framed && !build_frame(d)) return 0;
  if (!entry->framed) {
    push_ref(d->thread, entry->ref);
    lua_replace(d->thread, waymark_frame_argument(d, (int)(entry - d->cache)));
    entry->framed = 1;
  }
  return 1;
}

void waymark_dispatch_frame_entry(waymark_dispatch *d, waymark_dispatch_entry *entry) {
  entry->framed = 0;
  if (d->framed && d->busy == 0) (void)waymark_dispatch_frame_ready(d, entry);
}

void waymark_dispatch_set_slot(waymark_dispatch *d, int slot, int ref) {
  d->slots[slot] = ref;
  if (!d->framed) return;
  if (d->busy != 0) {
    d->framed = 0; // laid out again before the next call on the thread
    return;
  }
  push_ref(d->thread, ref);
  lua_replace(d->thread, WAYMARK_FRAME_HANDLERS + slot);
}

void waymark_dispatch_close(waymark_dispatch *d) {
  d->open = 0;
  // A running call keeps the thread until the next close (the owner's deinit) or the state's.
  if (d->thread == NULL || d->busy != 0) return;
  lua_settop(d->thread, 0);
  luaL_unref(d->L, LUA_REGISTRYINDEX, d->thread_ref);
  d->thread = NULL;
  d->framed = 0;
}
