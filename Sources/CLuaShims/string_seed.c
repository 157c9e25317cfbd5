// A fixed seed for the hashes of strings, so that the order in which `next` (and so
// `pairs`) walks a table's string keys is a function of the script alone (issue 30).
//
// lua_newstate seeds a state's string hashes from the clock and from addresses
// (luai_makeseed), and Lua offers no way to choose the seed. It is fixed here through the
// allocator: lua_newstate's first allocation is the block holding the lua_State and the
// global_State, its second (the stack) comes after the seed is set and before the first
// string is interned. At that second call this file finds the global_State in the first
// block by the allocator and userdata lua_newstate stored at its start, checks the fields
// around the seed hold what lua_newstate just set, and writes the seed. The layout of the
// global_State's first fields is the same in every release from 5.4.0 to 5.4.8 (lstate.h);
// any other release, or a block that does not hold what is expected, is refused: no state
// is created, and waymark_open_failure says why.
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "string_seed.h"

_Static_assert(sizeof(void *) == 8 && sizeof(lua_Integer) == 8 && sizeof(unsigned int) == 4,
               "the global_State offsets below are those of LP64 machines");

/// Offsets in global_State (Lua 5.4.0 to 5.4.8, LP64): frealloc, ud, totalbytes, GCdebt,
/// GCestimate, lastatomic, strt {hash, nuse, size}, l_registry, nilvalue, seed, currentwhite.
enum {
  G_FREALLOC = 0,
  G_UD = 8,
  G_TOTALBYTES = 16,
  G_GCDEBT = 24,
  G_LASTATOMIC = 40,
  G_STRT_HASH = 48,
  G_STRT_NUSE = 56,
  G_STRT_SIZE = 60,
  G_REGISTRY_TAG = 64 + 8,
  G_NILVALUE = 80,
  G_NILVALUE_TAG = 80 + 8,
  G_SEED = 96,
  G_CURRENTWHITE = 100,
  G_KNOWN_END = 101,
};
/// The tags and colour lua_newstate sets before its first allocation after the block: nil
/// in the registry, the integer 0 in nilvalue ("not built yet"), white 0.
enum { TAG_NIL = 0, TAG_INTEGER = 3, WHITE0 = 1 << 3 };

static _Atomic(const char *) failure = NULL;

const char *waymark_open_failure(void) { return atomic_load(&failure); }

/// Whether `ident` names a release from Lua 5.4.0 to 5.4.8.
int waymark_string_seed_release_known(const char *ident) {
  const char *version = ident != NULL ? strstr(ident, "Lua ") : NULL;
  int major, minor, release, length = 0;
  if (version == NULL || sscanf(version, "Lua %d.%d.%d%n", &major, &minor, &release, &length) != 3) return 0;
  if (version[length] != ' ' && version[length] != '\0') return 0;
  return major == 5 && minor == 4 && release >= 0 && release <= 8;
}

typedef struct {
  waymark_runtime *rt;
  unsigned char *block; // lua_newstate's first allocation (its LG)
  size_t size;
  int seeded;  // the seed is set
  int refused; // the block was not what this file knows: the state is not made
} seeding;

static void *seeding_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

static int64_t read_i64(const unsigned char *at) {
  int64_t v;
  memcpy(&v, at, sizeof v);
  return v;
}

static int32_t read_i32(const unsigned char *at) {
  int32_t v;
  memcpy(&v, at, sizeof v);
  return v;
}

/// Whether `g` holds what lua_newstate set before this allocation.
static int looks_like_new_global_state(const seeding *s, const unsigned char *g) {
  lua_Alloc f;
  void *ud, *hash;
  memcpy(&f, g + G_FREALLOC, sizeof f);
  memcpy(&ud, g + G_UD, sizeof ud);
  memcpy(&hash, g + G_STRT_HASH, sizeof hash);
  return f == seeding_alloc && ud == (const void *)s && read_i64(g + G_TOTALBYTES) == (int64_t)s->size &&
         read_i64(g + G_GCDEBT) == 0 && read_i64(g + G_LASTATOMIC) == 0 && hash == NULL &&
         read_i32(g + G_STRT_NUSE) == 0 && read_i32(g + G_STRT_SIZE) == 0 && g[G_REGISTRY_TAG] == TAG_NIL &&
         read_i64(g + G_NILVALUE) == 0 && g[G_NILVALUE_TAG] == TAG_INTEGER && g[G_CURRENTWHITE] == WHITE0;
}

/// Finds the global_State in the first block and sets its seed; 0 if it is not found.
static int reseed(seeding *s) {
  for (size_t offset = 0; offset + G_KNOWN_END <= s->size; offset += 8) {
    unsigned char *g = s->block + offset;
    if (!looks_like_new_global_state(s, g)) continue;
    unsigned int seed = WAYMARK_STRING_SEED;
    memcpy(g + G_SEED, &seed, sizeof seed);
    return 1;
  }
  return 0;
}

static void *seeding_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  seeding *s = (seeding *)ud;
  if (s->block == NULL) {
    s->block = waymark_alloc(s->rt, ptr, osize, nsize);
    s->size = nsize;
    return s->block;
  }
  if (!s->seeded && !s->refused) {
    s->seeded = reseed(s);
    if (!s->seeded) {
      s->refused = 1;
      atomic_store(&failure, "the state's string seed was not where Lua 5.4.0 to 5.4.8 keep it");
      if (nsize != 0) return NULL; // lua_newstate frees what it made (through here) and returns NULL
    }
  }
  return waymark_alloc(s->rt, ptr, osize, nsize);
}

lua_State *waymark_newstate_seeded(waymark_runtime *rt) {
  if (!waymark_string_seed_release_known(lua_ident)) {
    atomic_store(&failure, "the fixed string seed knows the layouts of Lua 5.4.0 to 5.4.8 only");
    return NULL;
  }
  seeding s = {rt, NULL, 0, 0, 0};
  lua_State *L = lua_newstate(seeding_alloc, &s);
  if (L == NULL) return NULL;
  lua_setallocf(L, waymark_alloc, rt);
  if (!s.seeded) { // no allocation after the block: not the lua_newstate this file knows
    atomic_store(&failure, "the state was made without the allocation the string seed is set at");
    lua_close(L);
    return NULL;
  }
  return L;
}
