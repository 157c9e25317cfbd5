// libedit from the system (Debian: libedit-dev), through its readline interface: line
// editing and history for `waymark repl` on a terminal. What Swift cannot set directly is
// set here: the C globals that configure completion.
#include <stdio.h>
#include <stdlib.h>
#include <editline/readline.h>

/// Makes `attempt` the completion of every TAB, on words that break at spaces, brackets and
/// operators but not at `.` and `:` (so `map.cam` and `home:set_` are one word), with no
/// character appended to a unique completion and no file-name completion as a fallback.
static inline void waymark_editline_setup(rl_completion_func_t *attempt) {
  static char breaks[] = " \t\n\"'`@$><=;|&{(,+-*/%^#~[]";
  rl_readline_name = "waymark";
  rl_basic_word_break_characters = breaks;
  rl_completer_word_break_characters = breaks;
  rl_completion_append_character = '\0';
  rl_attempted_completion_function = attempt;
}

/// Called from a completion attempt: no file-name completion after it.
static inline void waymark_editline_completion_over(void) { rl_attempted_completion_over = 1; }

/// The line being edited, up to the cursor.
static inline const char *waymark_editline_buffer(int *cursor) {
  *cursor = rl_point;
  return rl_line_buffer;
}
