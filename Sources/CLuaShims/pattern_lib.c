// string.find, string.match, string.gmatch and string.gsub on the bounded matcher
// (pattern_match.c), with the arguments, results and errors of Lua 5.4's string library.
// The plain search of find counts its work too: a naive search for a long needle in a long
// haystack is quadratic.
#include <string.h>

#include "pattern.h"

/// Bytes that make a pattern more than a plain string (find searches plainly without them).
static const char specials[] = "^$*+?.([%-";

/// A relative start position (negative: from the end) as a 1-based one; 0 and positions
/// before the start become 1.
static size_t start_position(lua_Integer position, size_t length) {
  if (position > 0) return (size_t)position;
  if (position == 0) return 1;
  if (position < -(lua_Integer)length) return 1;
  return length + (size_t)position + 1;
}

static int has_specials(const char *p, size_t length) {
  for (size_t i = 0; i < length; i++) {
    if (p[i] != '\0' && strchr(specials, p[i]) != NULL) return 1;
  }
  return 0;
}

/// The first occurrence of needle in haystack, or NULL; the comparisons count as steps.
static const char *plain_search(lua_State *L, const char *haystack, size_t length, const char *needle,
                                size_t needle_length) {
  if (needle_length == 0) return haystack;
  if (needle_length > length) return NULL;
  waymark_step_counter steps = WAYMARK_STEP_COUNTER;
  const char *last = haystack + (length - needle_length);
  for (const char *at = haystack; at <= last; at++) {
    at = memchr(at, needle[0], (size_t)(last - at) + 1);
    if (at == NULL) return NULL;
    waymark_steps(L, &steps, needle_length);
    if (memcmp(at + 1, needle + 1, needle_length - 1) == 0) return at;
  }
  return NULL;
}

// MARK: - Captures

/// Capture `index` of the last match s..e (with no captures, index 0 is the whole match):
/// its first byte in *start and its length, or CAPTURE_POSITION for a position capture.
static ptrdiff_t capture_span(pattern_matcher *m, int index, const char *s, const char *e, const char **start) {
  if (index >= m->captures) {
    if (index != 0) luaL_error(m->L, "invalid capture index %%%d", index + 1);
    *start = s;
    return e - s;
  }
  *start = m->capture[index].start;
  if (m->capture[index].length == CAPTURE_OPEN) luaL_error(m->L, "unfinished capture");
  return m->capture[index].length;
}

/// Pushes capture `index` of the last match s..e: a string, or a position for `()`.
static void push_capture(pattern_matcher *m, int index, const char *s, const char *e) {
  const char *start;
  ptrdiff_t length = capture_span(m, index, s, e, &start);
  if (length == CAPTURE_POSITION) {
    lua_pushinteger(m->L, (start - m->subject) + 1);
  } else {
    lua_pushlstring(m->L, start, (size_t)length);
  }
}

/// Pushes every capture of the match s..e (the whole match when there is none, unless s is
/// NULL) and returns how many.
static int push_captures(pattern_matcher *m, const char *s, const char *e) {
  int count = (m->captures == 0 && s != NULL) ? 1 : m->captures;
  luaL_checkstack(m->L, count, "too many captures");
  for (int i = 0; i < count; i++) push_capture(m, i, s, e);
  return count;
}

// MARK: - find and match

static int find_or_match(lua_State *L, int find) {
  size_t length, pattern_length;
  const char *s = luaL_checklstring(L, 1, &length);
  const char *p = luaL_checklstring(L, 2, &pattern_length);
  size_t start = start_position(luaL_optinteger(L, 3, 1), length) - 1;
  if (start > length) {
    luaL_pushfail(L);
    return 1;
  }
  if (find && (lua_toboolean(L, 4) || !has_specials(p, pattern_length))) {
    const char *at = plain_search(L, s + start, length - start, p, pattern_length);
    if (at == NULL) {
      luaL_pushfail(L);
      return 1;
    }
    lua_pushinteger(L, (at - s) + 1);
    lua_pushinteger(L, (lua_Integer)((size_t)(at - s) + pattern_length));
    return 2;
  }
  int anchored = (*p == '^');
  if (anchored) p++;
  pattern_matcher m;
  pattern_matcher_init(&m, L, s, length, p + pattern_length - anchored);
  const char *from = s + start;
  do {
    const char *end = pattern_match(&m, from, p);
    if (end != NULL) {
      if (!find) return push_captures(&m, from, end);
      lua_pushinteger(L, (from - s) + 1);
      lua_pushinteger(L, end - s);
      return push_captures(&m, NULL, NULL) + 2;
    }
  } while (from++ < m.subject_end && !anchored);
  luaL_pushfail(L);
  return 1;
}

static int find(lua_State *L) { return find_or_match(L, 1); }
static int match(lua_State *L) { return find_or_match(L, 0); }

// MARK: - gmatch

/// The state of one gmatch iteration (upvalue 3 of the iterator; 1 and 2 keep the subject
/// and the pattern alive).
typedef struct {
  pattern_matcher matcher;
  const char *next;       // where the next search starts
  const char *pattern;    // the pattern's first byte
  const char *last_match; // the end of the last match, never matched again empty
} gmatch_state;

static int gmatch_next(lua_State *L) {
  gmatch_state *g = (gmatch_state *)lua_touserdata(L, lua_upvalueindex(3));
  g->matcher.L = L;
  for (const char *from = g->next; from <= g->matcher.subject_end; from++) {
    const char *end = pattern_match(&g->matcher, from, g->pattern);
    if (end != NULL && end != g->last_match) {
      g->next = g->last_match = end;
      return push_captures(&g->matcher, from, end);
    }
  }
  return 0;
}

static int gmatch(lua_State *L) {
  size_t length, pattern_length;
  const char *s = luaL_checklstring(L, 1, &length);
  const char *p = luaL_checklstring(L, 2, &pattern_length);
  size_t start = start_position(luaL_optinteger(L, 3, 1), length) - 1;
  lua_settop(L, 2);
  gmatch_state *g = (gmatch_state *)lua_newuserdatauv(L, sizeof *g, 0);
  if (start > length) start = length + 1;
  pattern_matcher_init(&g->matcher, L, s, length, p + pattern_length);
  g->next = s + start;
  g->pattern = p;
  g->last_match = NULL;
  lua_pushcclosure(L, gmatch_next, 3);
  return 1;
}

// MARK: - gsub

/// Appends the replacement string (argument 3) for the match s..e: %0-%9 and %%.
static void append_template(pattern_matcher *m, luaL_Buffer *b, const char *s, const char *e) {
  lua_State *L = m->L;
  size_t length;
  const char *t = lua_tolstring(L, 3, &length);
  const char *end = t + length;
  waymark_steps(L, &m->steps, length);
  while (t < end) {
    const char *escape = memchr(t, '%', (size_t)(end - t));
    if (escape == NULL) break;
    luaL_addlstring(b, t, (size_t)(escape - t));
    int next = escape + 1 < end ? (unsigned char)escape[1] : 0;
    if (next == '%') {
      luaL_addchar(b, '%');
    } else if (next == '0') {
      luaL_addlstring(b, s, (size_t)(e - s));
    } else if (next >= '1' && next <= '9') {
      const char *start;
      ptrdiff_t captured = capture_span(m, next - '1', s, e, &start);
      if (captured == CAPTURE_POSITION) {
        lua_pushinteger(L, (start - m->subject) + 1);
        luaL_addvalue(b);
      } else {
        luaL_addlstring(b, start, (size_t)captured);
      }
    } else {
      luaL_error(L, "invalid use of '%c' in replacement string", '%');
    }
    t = escape + 2;
  }
  if (t < end) luaL_addlstring(b, t, (size_t)(end - t));
}

/// Appends the replacement of the match s..e; returns whether it changed the text.
static int append_replacement(pattern_matcher *m, luaL_Buffer *b, const char *s, const char *e, int kind) {
  lua_State *L = m->L;
  if (kind == LUA_TFUNCTION) {
    lua_pushvalue(L, 3);
    int count = push_captures(m, s, e);
    lua_call(L, count, 1);
  } else if (kind == LUA_TTABLE) {
    push_capture(m, 0, s, e);
    lua_gettable(L, 3);
  } else {
    append_template(m, b, s, e);
    return 1;
  }
  if (!lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    luaL_addlstring(b, s, (size_t)(e - s));
    return 0;
  }
  if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  luaL_addvalue(b);
  return 1;
}

static int gsub(lua_State *L) {
  size_t length, pattern_length;
  const char *s = luaL_checklstring(L, 1, &length);
  const char *p = luaL_checklstring(L, 2, &pattern_length);
  int kind = lua_type(L, 3);
  lua_Integer most = luaL_optinteger(L, 4, (lua_Integer)length + 1);
  luaL_argexpected(L, kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION || kind == LUA_TTABLE, 3,
                   "string/function/table");
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  int anchored = (*p == '^');
  if (anchored) p++;
  pattern_matcher m;
  pattern_matcher_init(&m, L, s, length, p + pattern_length - anchored);
  const char *from = s, *last_match = NULL;
  lua_Integer count = 0;
  int changed = 0;
  while (count < most) {
    const char *end = pattern_match(&m, from, p);
    if (end != NULL && end != last_match) {
      count++;
      changed = append_replacement(&m, &b, from, end, kind) | changed;
      from = last_match = end;
    } else if (from < m.subject_end) {
      luaL_addchar(&b, *from++);
    } else {
      break;
    }
    if (anchored) break;
  }
  if (changed) {
    luaL_addlstring(&b, from, (size_t)(m.subject_end - from));
    luaL_pushresult(&b);
  } else {
    lua_pushvalue(L, 1);
  }
  lua_pushinteger(L, count);
  return 2;
}

void waymark_install_pattern_functions(lua_State *L) {
  static const luaL_Reg functions[] = {
      {"find", find}, {"match", match}, {"gmatch", gmatch}, {"gsub", gsub}, {NULL, NULL}};
  luaL_setfuncs(L, functions, 0);
}
