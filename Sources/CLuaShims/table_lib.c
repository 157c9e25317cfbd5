// table.insert, remove, move, concat, unpack and sort with the arguments, results and errors
// of Lua 5.4's table library, but every loop counts its steps and checks the time budget:
// `table.move({}, 1, 1 << 40, 1, {})` or a `__len` that answers 2^40 would otherwise keep a
// plugin inside one C call for hours. sort is Lua's quicksort, made deterministic (Lua's own
// picks random pivots after unbalanced splits of large arrays, from the clock).
#include <limits.h>

#include "internal.h"

enum { NEEDS_READ = 1, NEEDS_WRITE = 2, NEEDS_LENGTH = 4 };

/// Whether the metatable on top (and `count` values above it) has `event`; pushes it.
static int has_metamethod(lua_State *L, const char *event, int count) {
  lua_pushstring(L, event);
  return lua_rawget(L, -count) != LUA_TNIL;
}

/// Requires argument `arg` to be a table, or to have the metamethods `needs` asks for.
static void require_table_like(lua_State *L, int arg, int needs) {
  if (lua_type(L, arg) == LUA_TTABLE) return;
  int pushed = 1;
  if (lua_getmetatable(L, arg) && (!(needs & NEEDS_READ) || has_metamethod(L, "__index", ++pushed)) &&
      (!(needs & NEEDS_WRITE) || has_metamethod(L, "__newindex", ++pushed)) &&
      (!(needs & NEEDS_LENGTH) || has_metamethod(L, "__len", ++pushed))) {
    lua_pop(L, pushed);
    return;
  }
  luaL_checktype(L, arg, LUA_TTABLE); // raises
}

/// The length of argument `arg` (with __len), after checking it is table-like.
static lua_Integer length_of(lua_State *L, int arg, int needs) {
  require_table_like(L, arg, needs | NEEDS_LENGTH);
  return luaL_len(L, arg);
}

/// t[to] = t[from] for the table at `arg`.
static void copy_element(lua_State *L, int arg, lua_Integer from, lua_Integer to) {
  lua_geti(L, arg, from);
  lua_seti(L, arg, to);
}

static int insert(lua_State *L) {
  lua_Integer first_empty = luaL_intop(+, length_of(L, 1, NEEDS_READ | NEEDS_WRITE), 1);
  lua_Integer position;
  switch (lua_gettop(L)) {
  case 2: position = first_empty; break;
  case 3: {
    position = luaL_checkinteger(L, 2);
    luaL_argcheck(L, (lua_Unsigned)position - 1u < (lua_Unsigned)first_empty, 2, "position out of bounds");
    waymark_step_counter steps = WAYMARK_STEP_COUNTER;
    for (lua_Integer i = first_empty; i > position; i--) {
      waymark_steps(L, &steps, 1);
      copy_element(L, 1, i - 1, i);
    }
    break;
  }
  default: return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, position);
  return 0;
}

static int remove_element(lua_State *L) {
  lua_Integer size = length_of(L, 1, NEEDS_READ | NEEDS_WRITE);
  lua_Integer position = luaL_optinteger(L, 2, size);
  if (position != size) { // Lua 5.4.4 names argument 1 here
    luaL_argcheck(L, (lua_Unsigned)position - 1u <= (lua_Unsigned)size, 1, "position out of bounds");
  }
  lua_geti(L, 1, position);
  waymark_step_counter steps = WAYMARK_STEP_COUNTER;
  for (; position < size; position++) {
    waymark_steps(L, &steps, 1);
    copy_element(L, 1, position + 1, position);
  }
  lua_pushnil(L);
  lua_seti(L, 1, position);
  return 1;
}

static int move(lua_State *L) {
  lua_Integer first = luaL_checkinteger(L, 2);
  lua_Integer last = luaL_checkinteger(L, 3);
  lua_Integer to = luaL_checkinteger(L, 4);
  int destination = !lua_isnoneornil(L, 5) ? 5 : 1;
  require_table_like(L, 1, NEEDS_READ);
  require_table_like(L, destination, NEEDS_WRITE);
  if (last >= first) {
    luaL_argcheck(L, first > 0 || last < LUA_MAXINTEGER + first, 3, "too many elements to move");
    lua_Integer count = last - first + 1;
    luaL_argcheck(L, to <= LUA_MAXINTEGER - count + 1, 4, "destination wrap around");
    // Forward unless the ranges overlap with the destination after the source.
    int forward = to > last || to <= first || (destination != 1 && !lua_compare(L, 1, destination, LUA_OPEQ));
    waymark_step_counter steps = WAYMARK_STEP_COUNTER;
    for (lua_Integer i = 0; i < count; i++) {
      waymark_steps(L, &steps, 1);
      lua_Integer offset = forward ? i : count - 1 - i;
      lua_geti(L, 1, first + offset);
      lua_seti(L, destination, to + offset);
    }
  }
  lua_pushvalue(L, destination);
  return 1;
}

/// Appends t[i] of the table at 1 to the buffer; raises if it is not a string or a number.
static void append_element(lua_State *L, luaL_Buffer *b, lua_Integer i) {
  lua_geti(L, 1, i);
  if (!lua_isstring(L, -1)) {
    luaL_error(L, "invalid value (%s) at index %I in table for 'concat'", luaL_typename(L, -1), (LUAI_UACINT)i);
  }
  luaL_addvalue(b);
}

static int concat(lua_State *L) {
  lua_Integer last = length_of(L, 1, NEEDS_READ);
  size_t separator_length;
  const char *separator = luaL_optlstring(L, 2, "", &separator_length);
  lua_Integer i = luaL_optinteger(L, 3, 1);
  last = luaL_optinteger(L, 4, last);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  waymark_step_counter steps = WAYMARK_STEP_COUNTER;
  for (; i < last; i++) {
    waymark_steps(L, &steps, 1 + separator_length / 64);
    append_element(L, &b, i);
    luaL_addlstring(&b, separator, separator_length);
  }
  if (i == last) append_element(L, &b, i);
  luaL_pushresult(&b);
  return 1;
}

static int unpack(lua_State *L) {
  lua_Integer i = luaL_optinteger(L, 2, 1);
  lua_Integer last = luaL_opt(L, luaL_checkinteger, 3, luaL_len(L, 1));
  if (i > last) return 0;
  lua_Unsigned count = (lua_Unsigned)last - (lua_Unsigned)i;
  if (count >= (unsigned int)INT_MAX || !lua_checkstack(L, (int)(++count))) {
    return luaL_error(L, "too many results to unpack");
  }
  waymark_step_counter steps = WAYMARK_STEP_COUNTER;
  for (; i < last; i++) {
    waymark_steps(L, &steps, 1);
    lua_geti(L, 1, i);
  }
  lua_geti(L, 1, last);
  return (int)count;
}

// MARK: - sort

/// Array positions (arrays are shorter than INT_MAX), unsigned as in Lua's table library, so
/// the arithmetic on them is Lua's.
typedef unsigned int position;

/// Whether the value at stack index a is less than the one at b, by the order function at 2
/// or by `<`.
static int less_than(lua_State *L, int a, int b) {
  if (lua_isnil(L, 2)) return lua_compare(L, a, b, LUA_OPLT);
  a = lua_absindex(L, a);
  b = lua_absindex(L, b);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, a);
  lua_pushvalue(L, b);
  lua_call(L, 2, 1);
  int less = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return less;
}

/// t[i] = the value on top, t[j] = the one below it; pops both.
static void store_two(lua_State *L, position i, position j) {
  lua_seti(L, 1, i);
  lua_seti(L, 1, j);
}

/// Splits t[lo..up] around the pivot P on top of the stack (also at t[up - 1]; t[lo] <= P <=
/// t[up]): returns where P ends, with the smaller values before it and the larger after. An
/// order function that is not a strict order walks an index past the other end, which Lua
/// reports as "invalid order function for sorting", and so does this.
static position partition(lua_State *L, position lo, position up, waymark_step_counter *steps) {
  position i = lo, j = up - 1;
  for (;;) {
    while (lua_geti(L, 1, ++i), less_than(L, -1, -2)) { // t[i] < P
      waymark_steps(L, steps, 1);
      if (i == up - 1) luaL_error(L, "invalid order function for sorting");
      lua_pop(L, 1);
    }
    while (lua_geti(L, 1, --j), less_than(L, -3, -1)) { // P < t[j]
      waymark_steps(L, steps, 1);
      if (j < i) luaL_error(L, "invalid order function for sorting");
      lua_pop(L, 1);
    }
    if (j < i) {
      lua_pop(L, 1);
      store_two(L, up - 1, i); // t[up - 1] = t[i], t[i] = P
      return i;
    }
    store_two(L, i, j); // t[i] and t[j] swap
  }
}

/// Lua 5.4's quicksort of t[lo..up], comparison for comparison (so ties end in the same order
/// and the same invalid order functions are detected), but where Lua would pick a random
/// pivot after a badly unbalanced split, the pivot is a function of the bounds: the same
/// order on every run.
static void quicksort(lua_State *L, position lo, position up, int spread, waymark_step_counter *steps) {
  while (lo < up) {
    waymark_steps(L, steps, 1);
    lua_geti(L, 1, lo); // order t[lo] and t[up]
    lua_geti(L, 1, up);
    if (less_than(L, -1, -2)) store_two(L, lo, up);
    else lua_pop(L, 2);
    if (up - lo == 1) return;
    position p = (lo + up) / 2;
    if (spread && up - lo >= 100) {
      position quarter = (up - lo) / 4;
      p = ((lo * 2654435761u) ^ up) % (quarter * 2) + lo + quarter;
    }
    lua_geti(L, 1, p); // order t[lo], t[p] and t[up]
    lua_geti(L, 1, lo);
    if (less_than(L, -2, -1)) {
      store_two(L, p, lo);
    } else {
      lua_pop(L, 1);
      lua_geti(L, 1, up);
      if (less_than(L, -1, -2)) store_two(L, p, up);
      else lua_pop(L, 2);
    }
    if (up - lo == 2) return;
    lua_geti(L, 1, p); // the median is the pivot: it goes to t[up - 1]
    lua_pushvalue(L, -1);
    lua_geti(L, 1, up - 1);
    store_two(L, p, up - 1);
    p = partition(L, lo, up, steps);
    position smaller;
    if (p - lo < up - p) { // recurse into the shorter side, loop on the other
      quicksort(L, lo, p - 1, spread, steps);
      smaller = p - lo;
      lo = p + 1;
    } else {
      quicksort(L, p + 1, up, spread, steps);
      smaller = up - p;
      up = p - 1;
    }
    if ((up - lo) / 128 > smaller) spread = 1; // unbalanced: vary the pivot from now on
  }
}

static int sort(lua_State *L) {
  lua_Integer n = length_of(L, 1, NEEDS_READ | NEEDS_WRITE);
  if (n <= 1) return 0;
  luaL_argcheck(L, n < INT_MAX, 1, "array too big");
  if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_settop(L, 2);
  waymark_step_counter steps = WAYMARK_STEP_COUNTER;
  quicksort(L, 1, (position)n, 0, &steps);
  return 0;
}

void waymark_install_table_functions(lua_State *L) {
  static const luaL_Reg functions[] = {{"insert", insert}, {"remove", remove_element},
                                       {"move", move},     {"concat", concat},
                                       {"unpack", unpack}, {"sort", sort},
                                       {NULL, NULL}};
  luaL_setfuncs(L, functions, 0);
}
