// A matcher for Lua 5.4 patterns (manual section 6.4.1) that never runs unbounded inside one
// C call: every step is counted and the watchdog's deadline is checked every few thousand,
// so a backtracking pattern on a long subject ends with the time-budget error instead of
// holding the thread for hours. Results, captures and error messages are those of Lua's own
// string library (Tests/LuaKitTests/PatternDifferentialTests.swift compares them).
//
// The matcher backtracks recursively; every choice point (an item with '?', '*', '+' or '-'
// that matched, an opening or closing capture) is one level of recursion, and at most
// PATTERN_MAX_NESTING levels are open at once, the limit at which Lua says "pattern too
// complex". Pattern items are decoded when the match reaches them, so a malformed tail that
// no attempt reaches is never reported, exactly as in Lua.
#include <ctype.h>
#include <string.h>

#include "pattern.h"

enum { ESCAPE = '%' };

void pattern_matcher_init(pattern_matcher *m, lua_State *L, const char *subject, size_t subject_length,
                          const char *pattern_end) {
  m->L = L;
  m->subject = subject;
  m->subject_end = subject + subject_length;
  m->pattern_end = pattern_end;
  m->captures = 0;
  m->nesting_left = PATTERN_MAX_NESTING;
  m->steps = (waymark_step_counter)WAYMARK_STEP_COUNTER;
}

/// The pattern byte at p, or 0 at its end (Lua strings carry a terminating zero there).
static int pattern_byte(const pattern_matcher *m, const char *p) {
  return p < m->pattern_end ? (unsigned char)*p : 0;
}

/// The subject byte at s, or 0 at its end (what a frontier sees past the last byte).
static int subject_byte(const pattern_matcher *m, const char *s) {
  return s < m->subject_end ? (unsigned char)*s : 0;
}

// MARK: - Single items

/// Whether byte c is in the class named by letter (%a, %d, ..., %z or, for any other byte,
/// the byte itself). An upper-case class letter is the complement of its lower-case class.
static int in_class(int c, int letter) {
  int member;
  switch (tolower(letter)) {
  case 'a': member = isalpha(c); break;
  case 'c': member = iscntrl(c); break;
  case 'd': member = isdigit(c); break;
  case 'g': member = isgraph(c); break;
  case 'l': member = islower(c); break;
  case 'p': member = ispunct(c); break;
  case 's': member = isspace(c); break;
  case 'u': member = isupper(c); break;
  case 'w': member = isalnum(c); break;
  case 'x': member = isxdigit(c); break;
  case 'z': member = (c == 0); break; // %z: the zero byte (deprecated since 5.2, still accepted)
  default: return letter == c;
  }
  if (isupper(letter)) return !member;
  return member != 0;
}

/// Whether byte c is in the set that opens at `open` ('[') and closes at `close` (']').
static int in_set(int c, const char *open, const char *close) {
  const char *p = open + 1;
  int complement = (*p == '^');
  if (complement) p++;
  for (; p < close; p++) {
    if (*p == ESCAPE) {
      p++;
      if (in_class(c, (unsigned char)*p)) return !complement;
    } else if (p + 2 < close && p[1] == '-') {
      if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) return !complement;
      p += 2;
    } else if ((unsigned char)*p == c) {
      return !complement;
    }
  }
  return complement;
}

/// Where the single-byte item at p ends (a byte, '.', %x or a [set]). Raises for an escape
/// at the pattern's end and for a set without its ']'.
static const char *item_end(pattern_matcher *m, const char *p) {
  if (*p == ESCAPE) {
    if (p + 1 >= m->pattern_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
    return p + 2;
  }
  if (*p != '[') return p + 1;
  p++;
  if (pattern_byte(m, p) == '^') p++;
  // The first byte of a set is always a member, even ']'.
  do {
    if (p >= m->pattern_end) luaL_error(m->L, "malformed pattern (missing ']')");
    if (*p++ == ESCAPE && p < m->pattern_end) p++;
  } while (pattern_byte(m, p) != ']');
  return p + 1;
}

/// Whether the subject byte at s matches the single-byte item p..end.
static int item_matches(const pattern_matcher *m, const char *s, const char *p, const char *end) {
  if (s >= m->subject_end) return 0;
  int c = (unsigned char)*s;
  switch (*p) {
  case '.': return 1;
  case ESCAPE: return in_class(c, (unsigned char)p[1]);
  case '[': return in_set(c, p, end - 1);
  default: return (unsigned char)*p == c;
  }
}

// MARK: - Special items

/// %bxy at p (pointing at x): a balanced run from x to its matching y starting at s.
static const char *match_balanced(pattern_matcher *m, const char *s, const char *p) {
  if (p + 1 >= m->pattern_end) luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
  if (s >= m->subject_end || *s != *p) return NULL;
  char open = p[0], close = p[1];
  int depth = 1;
  for (const char *q = s + 1; q < m->subject_end; q++) {
    waymark_steps(m->L, &m->steps, 1);
    if (*q == close) {
      if (--depth == 0) return q + 1;
    } else if (*q == open) {
      depth++;
    }
  }
  return NULL;
}

/// The index of capture `digit` for a back-reference; raises when there is no such closed
/// capture.
static int referenced_capture(pattern_matcher *m, int digit) {
  int index = digit - '1';
  if (index < 0 || index >= m->captures || m->capture[index].length == CAPTURE_OPEN) {
    luaL_error(m->L, "invalid capture index %%%d", index + 1);
  }
  return index;
}

/// %1-%9 at s: the same bytes as the capture again.
static const char *match_back_reference(pattern_matcher *m, const char *s, int digit) {
  int index = referenced_capture(m, digit);
  size_t length = (size_t)m->capture[index].length; // a position capture never matches
  if ((size_t)(m->subject_end - s) < length) return NULL;
  waymark_steps(m->L, &m->steps, length);
  if (memcmp(m->capture[index].start, s, length) != 0) return NULL;
  return s + length;
}

// MARK: - The matcher

static const char *match_from(pattern_matcher *m, const char *s, const char *p);

/// A nested attempt: one level of the choice-point limit.
static const char *nested(pattern_matcher *m, const char *s, const char *p) {
  if (m->nesting_left-- == 0) luaL_error(m->L, "pattern too complex");
  const char *end = match_from(m, s, p);
  m->nesting_left++;
  return end;
}

/// `item*` (at least `from`) or `item+`: as many as possible, then fewer until the rest
/// matches.
static const char *match_greedy(pattern_matcher *m, const char *s, const char *p, const char *end) {
  ptrdiff_t count = 0;
  while (item_matches(m, s + count, p, end)) {
    count++;
    waymark_steps(m->L, &m->steps, 1);
  }
  for (; count >= 0; count--) {
    const char *rest = nested(m, s + count, end + 1);
    if (rest != NULL) return rest;
    waymark_steps(m->L, &m->steps, 1);
  }
  return NULL;
}

/// `item-`: as few as possible, one more each time the rest fails.
static const char *match_lazy(pattern_matcher *m, const char *s, const char *p, const char *end) {
  for (;;) {
    const char *rest = nested(m, s, end + 1);
    if (rest != NULL) return rest;
    if (!item_matches(m, s, p, end)) return NULL;
    s++;
    waymark_steps(m->L, &m->steps, 1);
  }
}

/// '(' at p opened a capture (or a position capture): match the rest with it open.
static const char *match_capture_open(pattern_matcher *m, const char *s, const char *p, ptrdiff_t kind) {
  if (m->captures >= PATTERN_MAX_CAPTURES) luaL_error(m->L, "too many captures");
  m->capture[m->captures].start = s;
  m->capture[m->captures].length = kind;
  m->captures++;
  const char *end = nested(m, s, p);
  if (end == NULL) m->captures--;
  return end;
}

/// ')' closed the innermost open capture at s: match the rest with it closed.
static const char *match_capture_close(pattern_matcher *m, const char *s, const char *p) {
  int index = m->captures - 1;
  while (index >= 0 && m->capture[index].length != CAPTURE_OPEN) index--;
  if (index < 0) luaL_error(m->L, "invalid pattern capture");
  m->capture[index].length = s - m->capture[index].start;
  const char *end = nested(m, s, p);
  if (end == NULL) m->capture[index].length = CAPTURE_OPEN;
  return end;
}

/// Matches from pattern position p at subject position s; single items advance in the loop,
/// choice points recurse.
static const char *match_from(pattern_matcher *m, const char *s, const char *p) {
  while (p < m->pattern_end) {
    waymark_steps(m->L, &m->steps, 1);
    switch (*p) {
    case '(':
      if (pattern_byte(m, p + 1) == ')') return match_capture_open(m, s, p + 2, CAPTURE_POSITION);
      return match_capture_open(m, s, p + 1, CAPTURE_OPEN);
    case ')':
      return match_capture_close(m, s, p + 1);
    case '$':
      if (p + 1 == m->pattern_end) return s == m->subject_end ? s : NULL;
      break; // a '$' inside the pattern is an ordinary byte
    case ESCAPE: {
      int next = pattern_byte(m, p + 1);
      if (next == 'b') {
        s = match_balanced(m, s, p + 2);
        if (s == NULL) return NULL;
        p += 4;
        continue;
      }
      if (next == 'f') {
        p += 2;
        if (pattern_byte(m, p) != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
        const char *end = item_end(m, p);
        int before = s == m->subject ? 0 : (unsigned char)s[-1];
        if (in_set(before, p, end - 1) || !in_set(subject_byte(m, s), p, end - 1)) return NULL;
        p = end;
        continue;
      }
      if (isdigit(next)) {
        s = match_back_reference(m, s, next);
        if (s == NULL) return NULL;
        p += 2;
        continue;
      }
      break; // another class: a single item
    }
    default: break;
    }
    const char *end = item_end(m, p);
    int suffix = pattern_byte(m, end);
    if (!item_matches(m, s, p, end)) {
      if (suffix != '*' && suffix != '?' && suffix != '-') return NULL;
      p = end + 1; // zero repetitions
      continue;
    }
    switch (suffix) {
    case '?': {
      const char *rest = nested(m, s + 1, end + 1);
      if (rest != NULL) return rest;
      p = end + 1;
      continue;
    }
    case '+': return match_greedy(m, s + 1, p, end);
    case '*': return match_greedy(m, s, p, end);
    case '-': return match_lazy(m, s, p, end);
    default:
      s++;
      p = end;
      continue;
    }
  }
  return s;
}

const char *pattern_match(pattern_matcher *m, const char *s, const char *p) {
  m->captures = 0;
  m->nesting_left = PATTERN_MAX_NESTING;
  return nested(m, s, p);
}
