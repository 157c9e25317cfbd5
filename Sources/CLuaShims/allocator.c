// The capped allocator: refuses growth past the limit while Lua code runs,
// so scripts get "not enough memory" inside pcall and the state stays usable.
#include <stdlib.h>

#include "CLuaShims.h"
#include "internal.h"

void *waymark_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  waymark_runtime *rt = (waymark_runtime *)ud;
  size_t old = ptr ? osize : 0; // without a block, osize encodes a type
  if (nsize == 0) {
    free(ptr);
    rt->in_use -= old;
    return NULL;
  }
  if (nsize > old && rt->enforce && rt->limit != 0 &&
      (rt->in_use - old + nsize > rt->limit || nsize - old > rt->limit)) {
    return NULL; // Lua runs an emergency collection, then raises LUA_ERRMEM
  }
  void *block = realloc(ptr, nsize);
  if (block == NULL) {
    if (nsize <= old) return ptr; // shrinking must succeed: keep the old block
    return NULL;
  }
  rt->in_use = rt->in_use - old + nsize;
  if (rt->in_use > rt->peak) rt->peak = rt->in_use;
  return block;
}
