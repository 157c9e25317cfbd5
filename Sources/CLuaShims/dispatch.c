// The prepared call table of CLuaShimsDispatch.h: the host's hot path for a handler called
// as handler(map, object), in one C call per event.
#include <stdlib.h>

#include "CLuaShims.h"
#include "internal.h"

waymark_dispatch *waymark_dispatch_new(lua_State *L, int slots, int first_ref) {
  waymark_dispatch *d = calloc(1, sizeof *d);
  if (d == NULL) return NULL;
  d->slots = malloc(sizeof *d->slots * (size_t)(slots > 0 ? slots : 1));
  if (d->slots == NULL) {
    free(d);
    return NULL;
  }
  for (int i = 0; i < slots; i++) d->slots[i] = LUA_NOREF;
  d->L = L;
  d->rt = waymark_runtime_of(L);
  d->open = 1;
  d->first_ref = first_ref;
  d->slot_count = slots;
  return d;
}

void waymark_dispatch_free(waymark_dispatch *d) {
  if (d == NULL) return;
  free(d->cache);
  free(d->slots);
  free(d);
}

int waymark_dispatch_remember(waymark_dispatch *d, size_t key, uintptr_t identity, int ref) {
  if (d->cache == NULL) {
    d->cache = calloc(WAYMARK_DISPATCH_CACHE, sizeof *d->cache);
    if (d->cache == NULL) return 0;
  }
  waymark_dispatch_entry *entry = &d->cache[key & (WAYMARK_DISPATCH_CACHE - 1)];
  entry->identity = identity;
  entry->ref = ref;
  return 1;
}

/// The protected call of handler(first, argument) with everything on the stack but the
/// message handler's slot below them: the host protected call of LuaC.protectedCall.
static inline int finish(waymark_dispatch *d, int handler, int argument, int *status, int *timed_out) {
  lua_State *L = d->L;
  waymark_runtime *rt = d->rt;
  int base = lua_gettop(L) + 1;
  lua_pushcfunction(L, waymark_traceback); // the same value as the registry's msgh_ref
  lua_rawgeti(L, LUA_REGISTRYINDEX, handler);
  lua_rawgeti(L, LUA_REGISTRYINDEX, d->first_ref);
  lua_rawgeti(L, LUA_REGISTRYINDEX, argument);
  int saved_enforce = 0;
  uint64_t token = waymark_call_begin(rt, L, &saved_enforce);
  int s = lua_pcall(L, 2, 1, base);
  int stopped = waymark_call_end(rt, L, token, saved_enforce);
  if (s != LUA_OK || stopped) {
    *status = s;
    *timed_out = stopped;
    lua_remove(L, base); // the message handler: the error value stays on top
    return WAYMARK_DISPATCH_ERROR;
  }
  int result;
  switch (lua_type(L, -1)) {
  case LUA_TBOOLEAN: result = lua_toboolean(L, -1) ? WAYMARK_DISPATCH_TRUE : WAYMARK_DISPATCH_FALSE; break;
  case LUA_TNIL: result = WAYMARK_DISPATCH_NIL; break;
  default: result = WAYMARK_DISPATCH_OTHER + lua_type(L, -1); break;
  }
  lua_settop(L, base - 1);
  return result;
}

int waymark_dispatch_call(waymark_dispatch *d, int slot, size_t key, uintptr_t identity, int *status,
                          int *timed_out) {
  if (d->cache == NULL) return WAYMARK_DISPATCH_MISS;
  const waymark_dispatch_entry *entry = &d->cache[key & (WAYMARK_DISPATCH_CACHE - 1)];
  if (entry->identity != identity) return WAYMARK_DISPATCH_MISS;
  return finish(d, d->slots[slot], entry->ref, status, timed_out);
}

int waymark_dispatch_call_ref(waymark_dispatch *d, int slot, int ref, int *status, int *timed_out) {
  return finish(d, d->slots[slot], ref, status, timed_out);
}
