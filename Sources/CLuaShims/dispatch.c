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

void waymark_dispatch_set_slot(waymark_dispatch *d, int slot, int ref) { d->slots[slot] = ref; }

void waymark_dispatch_close(waymark_dispatch *d) { d->open = 0; }

/// handler(first, argument) on the main thread, from the registry, read back: the host
/// protected call of LuaC.protectedCall. The message handler is pushed below the handler and
/// addressed from the top (-4), so the stack's height is never asked. Leaves the stack as it
/// was, or with the error value on top.
static int call_on_main(waymark_dispatch *d, int handler, int argument, int *status, int *timed_out) {
  lua_State *L = d->L;
  waymark_runtime *rt = d->rt;
  lua_pushcfunction(L, waymark_traceback); // the same value as the registry's msgh_ref
  lua_rawgeti(L, LUA_REGISTRYINDEX, handler);
  lua_rawgeti(L, LUA_REGISTRYINDEX, d->first_ref);
  lua_rawgeti(L, LUA_REGISTRYINDEX, argument);
  waymark_call call;
  waymark_call_begin(rt, L, &call);
  int s = lua_pcall(L, 2, 1, -4);
  int stopped = waymark_call_end(rt, L, &call);
  if (s != LUA_OK || stopped) {
    *status = s;
    *timed_out = stopped;
    lua_remove(L, -2); // the message handler, below the error value (or the result)
    return WAYMARK_DISPATCH_ERROR;
  }
  int type = lua_type(L, -1), result;
  switch (type) {
  case LUA_TBOOLEAN: result = lua_toboolean(L, -1) ? WAYMARK_DISPATCH_TRUE : WAYMARK_DISPATCH_FALSE; break;
  case LUA_TNIL: result = WAYMARK_DISPATCH_NIL; break;
  default: result = WAYMARK_DISPATCH_OTHER + type; break;
  }
  lua_settop(L, -3); // the result and the message handler
  return result;
}

int waymark_dispatch_call(waymark_dispatch *d, int slot, size_t key, uintptr_t identity, int *status,
                          int *timed_out) {
  if (d->cache == NULL) return WAYMARK_DISPATCH_MISS;
  waymark_dispatch_entry *entry = &d->cache[key & (WAYMARK_DISPATCH_CACHE - 1)];
  if (entry->identity != identity) return WAYMARK_DISPATCH_MISS;
  return call_on_main(d, d->slots[slot], entry->ref, status, timed_out);
}

int waymark_dispatch_call_ref(waymark_dispatch *d, int slot, int ref, int *status, int *timed_out) {
  return call_on_main(d, d->slots[slot], ref, status, timed_out);
}

// MARK: - The order

static waymark_dispatch_list *new_list(waymark_dispatch *const *tables, void *const *owners, int count) {
  size_t n = (size_t)(count > 0 ? count : 1);
  waymark_dispatch_list *list = calloc(1, sizeof *list);
  if (list == NULL) return NULL;
  list->tables = malloc(sizeof *list->tables * n);
  list->owners = malloc(sizeof *list->owners * n);
  if (list->tables == NULL || list->owners == NULL) {
    free(list->tables);
    free(list->owners);
    free(list);
    return NULL;
  }
  for (int i = 0; i < count; i++) {
    list->tables[i] = tables[i];
    list->owners[i] = owners[i];
  }
  list->count = count;
  return list;
}

static void free_lists(waymark_dispatch_list *list) {
  while (list != NULL) {
    waymark_dispatch_list *next = list->retired;
    free(list->tables);
    free(list->owners);
    free(list);
    list = next;
  }
}

waymark_dispatch_order *waymark_order_new(int max_depth) {
  waymark_dispatch_order *o = calloc(1, sizeof *o);
  if (o == NULL) return NULL;
  o->list = new_list(NULL, NULL, 0);
  if (o->list == NULL) {
    free(o);
    return NULL;
  }
  o->max_depth = max_depth;
  return o;
}

void waymark_order_free(waymark_dispatch_order *o) {
  if (o == NULL) return;
  free_lists(o->list);
  free(o);
}

int waymark_order_set(waymark_dispatch_order *o, waymark_dispatch *const *tables, void *const *owners, int count) {
  waymark_dispatch_list *list = new_list(tables, owners, count);
  if (list == NULL) return 0;
  if (o->walkers > 0) {
    list->retired = o->list; // a loop may still walk it (and the lists it retired)
  } else {
    free_lists(o->list);
  }
  o->list = list;
  return 1;
}

int waymark_order_release_retired(waymark_dispatch_order *o) {
  free_lists(o->list->retired);
  o->list->retired = NULL;
  return 1;
}

/// The answer of waymark_dispatch_first_true.
static inline long stopped(int code, int index) { return (long)index * 8 + code; }

long waymark_dispatch_first_true(waymark_dispatch_order *o, const waymark_dispatch_list *list, int start, int slot,
                                 size_t key, uintptr_t identity) {
  for (int i = start; i < list->count; i++) {
    waymark_dispatch *d = list->tables[i];
    if (!d->open || d->slots[slot] == LUA_NOREF) continue;
    if (o->depth >= o->max_depth) return stopped(WAYMARK_ORDER_NESTED, i);
    waymark_dispatch_entry *entry = d->cache != NULL ? &d->cache[key & (WAYMARK_DISPATCH_CACHE - 1)] : NULL;
    if (entry == NULL || entry->identity != identity) return stopped(WAYMARK_ORDER_MISS, i);
    long failures = d->failures;
    o->depth++;
    int result = call_on_main(d, d->slots[slot], entry->ref, &o->stop_status, &o->stop_timed_out);
    o->depth--;
    if (result == WAYMARK_DISPATCH_ERROR) return stopped(WAYMARK_ORDER_ERROR, i);
    if (d->failures != failures) continue; // failed inside: not a success
    if (result >= WAYMARK_DISPATCH_OTHER) {
      o->stop_type = result - WAYMARK_DISPATCH_OTHER;
      return stopped(WAYMARK_ORDER_OTHER, i);
    }
    d->consecutive_failures = 0;
    if (result == WAYMARK_DISPATCH_TRUE) return stopped(WAYMARK_ORDER_TRUE, i);
  }
  return stopped(WAYMARK_ORDER_NONE, list->count);
}
