#ifndef WAYMARK_PATTERN_H
#define WAYMARK_PATTERN_H
// The pattern matcher behind string.find, match, gmatch and gsub (pattern_match.c) and what
// those functions share (pattern_lib.c). Lua 5.4's pattern language, manual section 6.4.1.
#include <stddef.h>

#include "internal.h"

/// The most captures a pattern may open (Lua's LUA_MAXCAPTURES).
enum { PATTERN_MAX_CAPTURES = 32 };
/// Nested choice points (repetitions, optional items, captures) one match may hold open
/// before it fails with "pattern too complex", as Lua's matcher does.
enum { PATTERN_MAX_NESTING = 200 };
/// The length of a capture while it is open, and of a position capture `()`.
enum { CAPTURE_OPEN = -1, CAPTURE_POSITION = -2 };

/// One match attempt's state: the subject, the pattern's end, the captures, the step count.
typedef struct {
  lua_State *L;
  const char *subject;
  const char *subject_end;
  const char *pattern_end;
  /// Choice points still allowed (PATTERN_MAX_NESTING at the start of each attempt).
  int nesting_left;
  /// Captures opened so far, closed or not.
  int captures;
  struct {
    const char *start;
    ptrdiff_t length; // or CAPTURE_OPEN, CAPTURE_POSITION
  } capture[PATTERN_MAX_CAPTURES];
  waymark_step_counter steps;
} pattern_matcher;

/// Prepares a matcher for `subject` (length `subject_length`) and a pattern ending at
/// `pattern_end`.
void pattern_matcher_init(pattern_matcher *m, lua_State *L, const char *subject, size_t subject_length,
                          const char *pattern_end);

/// Tries the pattern starting at `p` against the subject at `s`, with no capture open.
/// Returns the end of the match, or NULL. Raises Lua errors for malformed patterns (only for
/// the parts the match reaches, as Lua does) and when the time budget runs out.
const char *pattern_match(pattern_matcher *m, const char *s, const char *p);

#endif
