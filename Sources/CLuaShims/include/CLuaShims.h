#ifndef CLUASHIMS_H
#define CLUASHIMS_H

// What Swift cannot see of the Lua C API (function-like macros, non-literal
// constants, variadics), plus the C halves of LuaKit: the error trampoline,
// the capped allocator and the time-budget watchdog.
//
// Rule: no function here lets a Lua error longjmp across a Swift frame. Swift
// functions called from Lua return a status; C raises after Swift returned.

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "CLuaShimsRuntime.h"
#include "CLuaShimsDispatch.h"

// MARK: - Constants Swift cannot import

/// The Lua version string ("Lua 5.4.4"), a macro Swift cannot import.
const char *waymark_lua_release(void);

/// LUA_REGISTRYINDEX, a non-literal macro.
static inline int waymark_registryindex(void) { return LUA_REGISTRYINDEX; }

// MARK: - Function-like macros

/// Whether the running C function was called as a method (`obj:name(...)`): then the
/// caller does not count `obj`, and argument errors count as luaL_argerror does.
static inline int waymark_called_as_method(lua_State *L) {
  lua_Debug ar;
  if (!lua_getstack(L, 0, &ar) || !lua_getinfo(L, "n", &ar)) return 0;
  return ar.namewhat != NULL && strcmp(ar.namewhat, "method") == 0;
}

static inline int waymark_pcall(lua_State *L, int nargs, int nresults, int msgh) {
  return lua_pcall(L, nargs, nresults, msgh);
}
static inline void waymark_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline const char *waymark_tolstring(lua_State *L, int i, size_t *len) {
  return lua_tolstring(L, i, len);
}
static inline lua_Number waymark_tonumber(lua_State *L, int i, int *isnum) {
  return lua_tonumberx(L, i, isnum);
}
static inline lua_Integer waymark_tointeger(lua_State *L, int i, int *isnum) {
  return lua_tointegerx(L, i, isnum);
}
static inline void waymark_insert(lua_State *L, int i) { lua_insert(L, i); }
static inline void waymark_remove(lua_State *L, int i) { lua_remove(L, i); }
static inline void waymark_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }
/// Reads t.a and t.b (raw) into *x and *y when the value at `t` is a table holding exactly
/// those two keys, both numbers, and answers 1; answers 0 otherwise. Stack: balanced.
static inline int waymark_number_pair(lua_State *L, int t, const char *a, const char *b, double *x, double *y) {
  if (lua_type(L, t) != LUA_TTABLE) return 0;
  t = lua_absindex(L, t);
  lua_pushstring(L, a);
  int found = lua_rawget(L, t) == LUA_TNUMBER;
  *x = lua_tonumber(L, -1);
  lua_pushstring(L, b);
  found = found && lua_rawget(L, t) == LUA_TNUMBER;
  *y = lua_tonumber(L, -1);
  lua_pop(L, 2);
  if (!found) return 0;
  int keys = 0;
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    if (++keys > 2) {
      lua_pop(L, 1);
      return 0;
    }
  }
  return 1;
}

// MARK: - Records (records.c)

/// Pushes a new list of `store[keys[i]]` (raw) for each of the `count` keys, the table
/// `store` at that absolute index (0: none); answers how many were not tables, whose places
/// stay empty for the caller to fill. Stack: +1.
int waymark_push_list_from(lua_State *L, int store, const lua_Integer *keys, int count);
/// Replaces the list of items on top by a cluster `{ position =, count =, items = the list }`:
/// `position` is the first item's own `position` table when its `lat` and `lng` are `lat`
/// and `lng`, else a new `{ lat =, lng = }`. `keys` is the absolute index of the strings
/// "position", "count", "items", "lat" and "lng", in that order. Stack: 0.
void waymark_wrap_cluster(lua_State *L, int keys, lua_Integer count, double lat, double lng);

/// Copies each field of the options table at `t` (absolute) to the stack at `base + slot`,
/// its slot the integer the table at `slots` (absolute) holds under its string key, and
/// answers the bit mask of the slots set; answers -1 when a key is a string that `slots`
/// does not hold (or holds outside 0 ..< `count`), a number or a boolean. Keys of other
/// types are ignored. The caller pushes the `count` slots first (`count` <= 63). Stack: 0.
long long waymark_gather_fields(lua_State *L, int t, int slots, int base, int count);

/// Whether every key of the table at `t` is an integer in 1 ... `n`, or of a type other
/// than string, number and boolean (which list checks ignore): one `lua_next` pass. Stack: 0.
int waymark_is_list(lua_State *L, int t, lua_Integer n);

// MARK: - Plain data (plain.c)

/// What every value of a plain-data copy costs besides the bytes of its strings.
#define WAYMARK_PLAIN_VALUE_COST 16
/// The deepest nesting of tables a plain-data copy holds.
#define WAYMARK_PLAIN_MAX_DEPTH 32

/// A growing byte buffer the caller owns (free `bytes` when done); `count` bytes are used.
typedef struct {
  unsigned char *bytes;
  size_t count, capacity;
} waymark_plain_buffer;

/// Encodes the value at `index` as plain data into `out` (from its start) and answers its
/// size as the host counts it (every value and string key 16 bytes, strings their bytes too),
/// or -1 when the host's own reader must copy it: a userdata (a marker or an overlay), a
/// table nested 32 deep, a stack or buffer that cannot grow, or more than `max_values`
/// values or `max_bytes` bytes (stopping there). Keys other than strings and integers are
/// dropped, and functions and threads copy as nil, as the host's reader does. Stack: 0.
long long waymark_plain_encode(lua_State *L, int index, waymark_plain_buffer *out, long long max_values,
                               long long max_bytes);
/// Frees a buffer's bytes.
void waymark_plain_release(waymark_plain_buffer *buffer);
/// Pushes the value `bytes` encode (waymark_plain_encode) and answers 1, or pushes nothing
/// and answers 0 when they are not such an encoding. Stack: +1 or 0.
int waymark_plain_push(lua_State *L, const unsigned char *bytes, size_t count);

// MARK: - GeoJSON features (feature.c)

/// A string inside a Lua value: `bytes` is NULL for none.
typedef struct {
  const char *bytes;
  size_t count;
} waymark_text;

/// A Point feature's fields: its strings live as long as the feature.
typedef struct {
  double longitude, latitude;
  waymark_text id, title, snippet;
  int has_properties;
} waymark_point;

/// Pushes the keys the feature reader looks up, after the title and snippet keys the caller
/// pushed: `type`, `Feature`, `geometry`, `Point`, `coordinates`, `id`, `properties`, once
/// for all the features of a call. Stack: +7.
void waymark_push_feature_keys(lua_State *L);

/// Reads the feature at `index` when it is an ordinary GeoJSON Point feature: `type`
/// "Feature", a `geometry` of `type` "Point" with two numbers in `coordinates`, a string or
/// no `id`, and no `properties` or a table of them whose title and snippet keys are strings
/// or absent. `keys` is the absolute index of the title key, the snippet key after it and
/// then the keys waymark_push_feature_keys pushed. Then pushes the properties (or nil) and
/// answers 1; else pushes nothing and answers 0, for the host's reader to say what is wrong.
/// Stack: +1 or 0.
int waymark_point_feature(lua_State *L, int index, int keys, waymark_point *out);

// MARK: - Variadics with fixed arity

/// lua_gc(L, LUA_GCCOLLECT): a full collection cycle.
void waymark_gc_collect(lua_State *L);
/// Stops the collector when it is running (lua_gc LUA_GCSTOP) and answers 1; answers 0,
/// changing nothing, when it was stopped already. An allocation that fails still runs an
/// emergency collection.
int waymark_gc_pause(lua_State *L);
/// Restarts the collector (lua_gc LUA_GCRESTART).
void waymark_gc_resume(lua_State *L);

// MARK: - State lifetime and libraries

/// Creates a state whose allocator is capped at `limit` bytes (0 = no cap),
/// with the traceback message handler stored in the registry, and whose strings hash
/// with a fixed seed, so that `pairs` walks string keys in an order the script alone
/// decides (string_seed.c). Returns NULL when memory is exhausted, or when the linked Lua
/// is not a release the fixed seed knows (waymark_open_failure says so).
waymark_runtime *waymark_open(size_t limit);
/// Why waymark_open refused to make a state on the linked Lua, or NULL if it never did.
const char *waymark_open_failure(void);
/// Whether `ident` (the linked library's is `lua_ident`) names a release from Lua 5.4.0 to
/// 5.4.8, those whose layout the fixed string seed knows.
int waymark_string_seed_release_known(const char *ident);
/// Unregisters from the watchdog, closes the Lua state (running finalizers)
/// and frees the runtime.
void waymark_close(waymark_runtime *rt);

/// Library bits for waymark_openlibs.
enum {
  WAYMARK_LIB_BASE = 1 << 0,
  WAYMARK_LIB_PACKAGE = 1 << 1,
  WAYMARK_LIB_COROUTINE = 1 << 2,
  WAYMARK_LIB_TABLE = 1 << 3,
  WAYMARK_LIB_IO = 1 << 4,
  WAYMARK_LIB_OS = 1 << 5,
  WAYMARK_LIB_STRING = 1 << 6,
  WAYMARK_LIB_MATH = 1 << 7,
  WAYMARK_LIB_UTF8 = 1 << 8,
  WAYMARK_LIB_DEBUG = 1 << 9,
};
/// Opens the selected standard libraries (as globals and in package.loaded).
/// The coroutine library gets watchdog-aware resume, wrap and close.
void waymark_openlibs(lua_State *L, unsigned libs);

/// Loads a chunk like luaL_loadbufferx, handing it to the parser in slices with the time
/// budget checked between them; a text chunk is then checked for the miscompilations of
/// Lua 5.4.4 and repaired or refused (docs/plugins.md, "Known bugs of Lua 5.4.4").
int waymark_load(lua_State *L, const char *chunk, size_t size, const char *name, const char *mode);

/// What the bytecode checks of text chunks do on a Lua release (chunk_repair.c).
enum {
  WAYMARK_REPAIR_NEEDED = 0,      ///< Lua 5.4.4: its bugs are repaired or refused
  WAYMARK_REPAIR_NOT_NEEDED = 1,  ///< a release with the fixes: chunks load as compiled
  WAYMARK_REPAIR_UNSUPPORTED = 2, ///< any other: no text chunk loads
};
/// The plan for the release that `ident` names (the linked library's is `lua_ident`,
/// "$LuaVersion: Lua 5.4.4  Copyright ...").
int waymark_repair_plan(const char *ident);
/// Whether the first `size` bytes of `dump` start with the header lua_dump of Lua 5.4 writes
/// on this machine: signature, version 5.4, official format, the check bytes (LUAC_DATA),
/// 4-byte instructions, 8-byte integers and floats, and the check numbers (LUAC_INT,
/// LUAC_NUM) in this machine's byte order. The checks read no dump that does not.
int waymark_dump_header_is_expected(const unsigned char *dump, size_t size);
/// Why no text chunk can load with the linked library (its release is not supported, or a
/// probe chunk it compiled has another dump header or other opcodes than the checks
/// expect), or NULL when chunks can load. Decided once per process.
const char *waymark_bytecode_checks_unsupported(void);

// MARK: - Line coverage (coverage.c)

/// Starts recording, afresh, which lines of file-backed chunks ("@path") run, in every state
/// of the process (from the next outermost call of each).
void waymark_coverage_start(void);
/// Stops recording; what was recorded stays readable until the next start or reset.
void waymark_coverage_stop(void);
/// Forgets what was recorded.
void waymark_coverage_reset(void);
/// What was recorded: files, and per line how often it ran and whether it holds code (1),
/// lies in a called function without code (2), or is unknown (0: a function never called).
int waymark_coverage_file_count(void);
const char *waymark_coverage_file_name(int file);
int waymark_coverage_line_count(int file);
uint64_t waymark_coverage_hits(int file, int line);
int waymark_coverage_kind(int file, int line);

// MARK: - Error trampoline

/// The Swift side of a Lua function. Returns the number of results (>= 0),
/// WAYMARK_RAISE_WITH_POSITION (message on top, to be prefixed with the Lua
/// caller's file:line) or WAYMARK_RAISE (error value on top, raised as is).
typedef int (*waymark_swift_function)(lua_State *L, void *box);
/// Releases a box handed to C (a retained Swift object).
typedef void (*waymark_release_function)(void *box);
enum { WAYMARK_RAISE_WITH_POSITION = -1, WAYMARK_RAISE = -2 };

/// Pushes a C closure that calls `fn(L, box)` and raises after it returned.
/// `release(box)` runs when Lua collects the closure or the state closes.
void waymark_push_swift_function(lua_State *L, waymark_swift_function fn, void *box,
                                 waymark_release_function release);

// MARK: - Userdata holding Swift objects (objects.c)

/// Pushes the metatable `tname`, creating it (with __name, __gc, __tostring
/// and a hidden __metatable) if missing. Returns 1 if it was created now.
int waymark_object_metatable(lua_State *L, const char *tname);
/// Pushes a full userdata owning `box` with the metatable `tname` (created if
/// missing). `release(box)` runs on __gc.
void waymark_push_object(lua_State *L, void *box, waymark_release_function release,
                         const char *tname);
/// The box of the userdata at `i` if its metatable is `tname`, else NULL.
/// Never raises.
void *waymark_test_object(lua_State *L, int i, const char *tname);
/// Pushes the value the host keeps with the object userdata at `i` (nil until set); answers
/// 0, having pushed nil, when `i` holds no object userdata. Stack: +1.
int waymark_push_host_value(lua_State *L, int i);
/// Pops the top value into the host's value of the object userdata at `i`; answers 0, having
/// popped it, when `i` holds no object userdata. Stack: -1.
int waymark_set_host_value(lua_State *L, int i);

// MARK: - The field cache of objects (objects.c)

/// The version of the object whose box is `object`, as its type tells it: a number that
/// changes whenever the object changes in a way its cached fields could see.
/// The box is opaque to the reader's type, which tells it back into its object.
typedef struct waymark_object_box waymark_object_box;
typedef uint64_t (*waymark_version_function)(waymark_object_box *object);
/// Replaces the Swift function on top (an object type's `__index`) and the table below it
/// (field name -> false, or true for a table handed out as a shallow copy; at most 16 names
/// of at most 40 bytes) by an `__index` that answers those fields from the object's cache
/// while the object's version (`version` of its box) holds, and calls the Swift function
/// for the rest and for misses, caching what they return. The type's metatable, at
/// `metatable`, learns the fields: objects pushed from now on get a user value for each.
void waymark_push_cached_index(lua_State *L, int metatable, waymark_version_function version);
/// Replaces the Swift function on top (an object type's `__newindex`) by one that empties
/// the object's cache before and after calling it.
void waymark_push_cache_clearing_newindex(lua_State *L);
/// Replaces the Swift function on top (an object type's `__index`) and the two tables below it
/// (a type's methods by name, then a holder) by an `__index` that answers a key of the methods
/// from them, with no call into Swift, and calls the Swift function for any other key. While
/// the holder's first value is set, only the object it holds is answered so (`false`: none).
void waymark_push_methods_index(lua_State *L);

// MARK: - Protected table access (metamethods may raise)

/// t[k] for t at index i, k a string; pushes the value. Returns a status and
/// leaves the error message on top on failure. Fast path for plain tables.
int waymark_pgetfield(lua_State *L, int i, const char *k);
/// t[k] = v (v on top, popped). Returns a status; error message on top.
int waymark_psetfield(lua_State *L, int i, const char *k);
/// t[n]; pushes the value. Returns a status; error message on top.
int waymark_pgeti(lua_State *L, int i, lua_Integer n);
/// t[n] = v (v on top, popped). Returns a status; error message on top.
int waymark_pseti(lua_State *L, int i, lua_Integer n);

#endif
