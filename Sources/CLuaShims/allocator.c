// The capped allocator: refuses growth past the limit while Lua code runs,
// so scripts get "not enough memory" inside pcall and the state stays usable.
//
// Blocks of at most 256 bytes (tables, strings, closures, userdata: nearly every Lua
// object) come from a pool of the state's own: 16 size classes of 16 bytes each, a free
// list per class, carved from 64 KiB chunks. Lua tells the size of every block it frees or
// resizes, so a block's class is known without a header, and handing a block out or taking
// it back is a few instructions where glibc's malloc takes a few hundred once its
// per-thread cache runs dry (a plugin building 100,000 small tables in one call, then the
// collector freeing them). The chunks go back to the system when the state closes; until
// then a class keeps the blocks it was given. Under AddressSanitizer every block is the
// system's, so its checks still see each one.
#include <stdlib.h>
#include <string.h>

#include "CLuaShims.h"
#include "internal.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WAYMARK_POOLED 0
#endif
#endif
#if !defined(WAYMARK_POOLED) && defined(__SANITIZE_ADDRESS__)
#define WAYMARK_POOLED 0
#endif
#ifndef WAYMARK_POOLED
#define WAYMARK_POOLED 1
#endif

enum {
  pool_step = 16,                    ///< class n holds blocks of (n + 1) * 16 bytes
  pool_largest = 16 * pool_step,     ///< larger blocks are the system's
  pool_chunk = 64 * 1024,            ///< bytes a chunk holds, its link included
};

/// The class of a block of `size` bytes (1 to pool_largest).
static inline size_t pool_class(size_t size) { return (size - 1) / pool_step; }

/// Whether a block of `size` bytes comes from the pool.
static inline int pooled(size_t size) { return WAYMARK_POOLED && size != 0 && size <= pool_largest; }

/// A block of class `c`, or NULL when no chunk can be had.
static void *pool_take(struct waymark_block_pool *pool, size_t c) {
  void *block = pool->free[c];
  if (block != NULL) {
    pool->free[c] = *(void **)block;
    return block;
  }
  size_t size = (c + 1) * pool_step;
  if ((size_t)(pool->end - pool->next) < size) {
    char *chunk = malloc(pool_chunk);
    if (chunk == NULL) return NULL;
    *(void **)chunk = pool->chunks;
    pool->chunks = chunk;
    pool->next = chunk + pool_step; // the link, padded so blocks stay 16-byte aligned
    pool->end = chunk + pool_chunk;
  }
  block = pool->next;
  pool->next += size;
  return block;
}

/// Gives a block of class `c` back to its class.
static inline void pool_give(struct waymark_block_pool *pool, void *block, size_t c) {
  *(void **)block = pool->free[c];
  pool->free[c] = block;
}

/// A block of `size` bytes, from the pool or the system.
static void *take(waymark_runtime *rt, size_t size) {
  return pooled(size) ? pool_take(&rt->pool, pool_class(size)) : malloc(size);
}

/// Frees a block of `size` bytes.
static void give(waymark_runtime *rt, void *block, size_t size) {
  if (pooled(size)) {
    pool_give(&rt->pool, block, pool_class(size));
  } else {
    free(block);
  }
}

/// `block` (of `old` bytes) resized to `size` bytes, moved if need be; NULL when no memory.
static void *resize(waymark_runtime *rt, void *block, size_t old, size_t size) {
  if (block == NULL) return take(rt, size);
  if (!pooled(old) && !pooled(size)) return realloc(block, size);
  if (pooled(old) && pooled(size) && pool_class(old) == pool_class(size)) return block;
  void *moved = take(rt, size);
  if (moved == NULL) return NULL;
  memcpy(moved, block, old < size ? old : size);
  give(rt, block, old);
  return moved;
}

void *waymark_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  waymark_runtime *rt = (waymark_runtime *)ud;
  size_t old = ptr ? osize : 0; // without a block, osize encodes a type
  if (nsize == 0) {
    if (ptr != NULL) give(rt, ptr, old);
    rt->in_use -= old;
    return NULL;
  }
  if (nsize > old && rt->enforce && rt->limit != 0 &&
      (rt->in_use - old + nsize > rt->limit || nsize - old > rt->limit)) {
    return NULL; // Lua runs an emergency collection, then raises LUA_ERRMEM
  }
  void *block = resize(rt, ptr, old, nsize);
  if (block == NULL) {
    // Shrinking must succeed: keep the old block (only when no chunk can be had). Lua frees
    // it later under the smaller size, so it goes to a class it is large enough for, or, a
    // system block now the size of a class, joins that class and is never freed: a leak
    // of one block, only when the system is out of memory.
    if (nsize <= old) return ptr;
    return NULL;
  }
  rt->in_use = rt->in_use - old + nsize;
  if (rt->in_use > rt->peak) rt->peak = rt->in_use;
  return block;
}

void waymark_pool_release(waymark_runtime *rt) {
  void *chunk = rt->pool.chunks;
  while (chunk != NULL) {
    void *next = *(void **)chunk;
    free(chunk);
    chunk = next;
  }
  memset(&rt->pool, 0, sizeof rt->pool);
}
