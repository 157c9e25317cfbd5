#!/usr/bin/env bash
# Runs Lua 5.4.4's own test files (the `testes` folder of Lua's sources, kept outside this
# repository) inside the sandbox, each as a script (`waymark run FILE`, as a user would), and
# prints one line per file (passed, or failed with its first error) and a summary; exit 1 on
# any failure. Build first (`swift build`); WAYMARK=path picks another waymark binary, and
# LUA_SUITE_KEEP=1 keeps the adapted copies (to run one again: cd there, waymark run FILE).
#
# Usage: scripts/lua-suite.sh DIR      (DIR holds pm.lua, strings.lua, ... of Lua 5.4.4)
#
# Each file runs from a temporary copy of DIR, as all.lua runs it with `_port = true` (the
# sandbox is no full POSIX system) and `_soft = true` (no long or memory-hungry tests), put
# before the file's first line so line numbers stay. The copy is adapted only where the
# sandbox documents a removal (docs/plugins.md, "Sandbox"): the table below comments out the
# lines that need what is removed, each naming the removal it stands for. An adaptation
# whose anchor no longer matches exactly one line fails its file: the table is for 5.4.4's
# files (CONTRIBUTING.md, "Lua's own test files").
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/lua-suite.sh DIR, the testes folder of Lua 5.4.4}
waymark=${WAYMARK:-$PWD/.build/debug/waymark}
[ -d "$dir" ] || { echo "lua-suite: $dir is not a folder" >&2; exit 2; }
[ -x "$waymark" ] || { echo "lua-suite: no waymark at $waymark: run swift build first" >&2; exit 2; }
files=(pm strings sort nextvar tpack utf8 coroutine locals closure calls errors vararg goto constructs literals
  math events bitwise gc)

# FILE | LINES | ANCHOR | REMOVAL: comment out LINES lines from the one line that the Perl
# regex ANCHOR matches; "=TEXT" replaces the anchor's match with TEXT; "every" before either
# applies it to every line the anchor matches (one at least).
adaptations=$(
  cat <<'TABLE'
strings.lua | 2 | ^assert\(string.find\(tostring\{\}, 'table:'\)\) | tostring shows no addresses (Printing values)
strings.lua | 2 | ^  assert\(string.format\("%p", io.stdin\) ~= null\) | no io
nextvar.lua | 11 | ^do   -- clear global table | no package (package.loaded)
nextvar.lua | =[{}] = 9, | \[io.stdin\] = 9, | no io (io.stdin, the only userdata at hand: a table stands in)
coroutine.lua | 1 | ^      Y = debug.getinfo\(2\)$ | debug has traceback only (getinfo)
coroutine.lua | = | (?<=X == 43) and Y.what == "C" | debug has traceback only (getinfo)
coroutine.lua | 18 | ^do   -- testing single trace of coroutines | debug has traceback only (sethook)
coroutine.lua | 2 | ^  assert\(debug.getinfo\(1\).currentline == debug.getinfo\(foo\) | debug has traceback only (getinfo)
coroutine.lua | 3 | ^debug.setupvalue\(f, 1, g\)$ | debug has traceback only (setupvalue)
locals.lua | =local tracegc = { start = function () end, stop = function () end } | ^local tracegc = require"tracegc" | no __gc finalizers and no io (tracegc marks collections on io.stderr)
locals.lua | every | ^assert\(getenv\( | debug has traceback only (getupvalue)
locals.lua | every | ^\s*assert\(debug.getinfo\(2\).name == | debug has traceback only (getinfo)
locals.lua | 25 | ^do   -- '__close' vs. return hooks in Lua functions | debug has traceback only (sethook)
closure.lua | 26 | ^assert\(debug.upvalueid\(foo1, 1\)\)$ | debug has traceback only (upvalueid, upvaluejoin)
calls.lua | 1 | ^assert\(debug.getinfo\(a\).source == "modname"\) | debug has traceback only (getinfo)
calls.lua | 2 | ^f = load\(string.dump\(function \(\) return 1 end\) | no binary chunks (string.dump)
calls.lua | 8 | ^do   -- another bug \(in 5.4.0\) | no binary chunks (string.dump)
calls.lua | 5 | ^x = string.dump\(load\("x = 1; return x"\)\) | no binary chunks (string.dump)
calls.lua | 11 | ^-- load when _ENV is not first upvalue | no binary chunks (string.dump); debug has traceback only (getupvalue)
calls.lua | 3 | ^x = string.dump\(a\)$ | no binary chunks (string.dump)
calls.lua | 16 | ^-- test for dump/undump with upvalues | no binary chunks (string.dump); debug has traceback only (setupvalue)
calls.lua | 23 | ^-- test for dump/undump with many upvalues | no binary chunks (string.dump); debug has traceback only (upvaluejoin)
calls.lua | 42 | ^print\("testing binary chunks"\) | no binary chunks (string.dump)
errors.lua | 1 | ^checkmessage\("for i = io.stdin, 10 do end", "FILE"\) | no io (io.stdin)
errors.lua | 7 | ^_G.D = debug$ | debug has traceback only (upvalueid, setuservalue)
errors.lua | every | ^  checkmessage\(".*io\.(input|stdin) | no io (io.input, io.stdin)
errors.lua | 1 | ^checkmessage\("\(io.write or print\)\{\}", "io.write"\) | no io (io.write)
errors.lua | 14 | ^-- errors in functions without debug info | no binary chunks (string.dump)
errors.lua | 1 | ^checkmessage\("getmetatable\(io.stdin\).__gc\(\)", "no value"\) | no io (io.stdin)
errors.lua | 1 | ^  assert\(tonumber\(line\) == debug.getinfo\(1, "l"\).currentline - 2\) | debug has traceback only (getinfo)
errors.lua | 1 | ^  assert\(string.find\(tostring\(XX\), "\^My Type"\)\) | tostring shows no addresses (Printing values)
goto.lua | 33 | ^-- all functions share same 'a' | debug has traceback only (upvalueid)
constructs.lua | 1 | ^  assert\(debug.getinfo\(1, "n"\).name == 'F'\) | debug has traceback only (getinfo)
literals.lua | every=tonumber(string.match(select(2, pcall(error, "", 2)), ":(%d+):")) | require"debug".getinfo\(1\).currentline | debug has traceback only (getinfo: the line is read from an error's position instead)
literals.lua | =if false then | ^if os.setlocale\("pt_BR"\) or os.setlocale\("ptb"\) then | os has no setlocale (the locale stays C)
events.lua | 1 | ^assert\(not pcall\(rawlen, io.stdin\)\) | no io (io.stdin)
events.lua | 29 | ^-- testing metatables for basic types | debug has traceback only (setmetatable)
bitwise.lua | 1 | ^require "bwcoercion"$ | the string metatable is protected (bwcoercion.lua gives strings bitwise metamethods)
bitwise.lua | =local bit32_module = function () | ^package.preload.bit32 = function \(\) | no package (package.preload)
bitwise.lua | =local bit32 = bit32_module() | ^local bit32 = require'bit32'$ | no package (package.preload)
bitwise.lua | 2 | ^a = 0xF0.0; b = 0xCC.0; c = "0xAA.0"; d = "0xFD.0" | the string metatable is protected (no bwcoercion: strings take no bitwise operators)
bitwise.lua | 20 | ^-- coercion from strings to integers | the string metatable is protected (no bwcoercion: strings take no bitwise operators)
errors.lua | =tonumber(string.match(select(2, pcall(error, "", 2)), ":(%d+):")) | debug.getinfo\(1, "l"\).currentline(?= \+ 1$) | debug has traceback only (getinfo: the line is read from an error's position instead; with _soft unset)
errors.lua | =tonumber(string.match(select(2, pcall(error, "", 2)), ":(%d+):")) | debug.getinfo\(x, "l"\).currentline(?= \+ 2$) | debug has traceback only (getinfo, as above; x is 1)
gc.lua | 3 | ^assert\(collectgarbage\("generational"\) == "incremental"\)$ | collectgarbage("generational") is refused (a bug of 5.4.4's generational mode)
gc.lua | every=collectgarbage() | ^GC\(\)$ | no __gc finalizers (GC() waits for one to see a cycle end: a full collection stands in)
gc.lua | 4 | ^setmetatable\(a, \{__gc = function \(u\)$ | no __gc finalizers
gc.lua | 18 | ^-- __gc x weak tables$ | no __gc finalizers
gc.lua | 25 | ^-- Create a closure \(function inside 'f'\) with an upvalue \('param'\) that$ | no __gc finalizers (the collection is seen by one)
gc.lua | 16 | ^-- create an object to be collected when state is closed$ | no __gc finalizers
gc.lua | 8 | ^do    -- check that the collector is not reentrant in incremental mode$ | no __gc finalizers
TABLE
)

work=$(mktemp -d)
if [ -n "${LUA_SUITE_KEEP:-}" ]; then
  echo "(adapted copies kept in $work)"
else
  trap 'rm -rf "$work"' EXIT
fi

passed=0
failed=0
for name in "${files[@]}"; do
  [ -f "$dir/$name.lua" ] || continue
  copy=$work/$name
  mkdir -p "$copy" && cp -R "$dir"/. "$copy"/
  if ! problem=$(ADAPTATIONS=$adaptations perl -e '
    my ($file) = @ARGV;
    open(my $in, "<:raw", $file) or die "cannot read $file\n";
    my @lines = <$in>;
    close $in;
    (my $base = $file) =~ s{.*/}{};
    for my $row (split /\n/, $ENV{ADAPTATIONS}) {
      my ($target, $count, $anchor, $removal) = split / \| /, $row;
      next unless defined $removal && $target eq $base;
      my @at = grep { $lines[$_] =~ /$anchor/ } 0 .. $#lines;
      my $every = $count =~ s/^every//;
      die "adaptation for $removal: /$anchor/ matches " . scalar(@at) . " lines, not one\n"
        unless $every ? @at > 0 : @at == 1;
      if ($count =~ /^=(.*)$/) {
        my $text = $1;
        $lines[$_] =~ s/$anchor/$text/ for @at;
      } elsif ($every) {
        $lines[$_] = "-- " . $lines[$_] for @at;
      } else {
        $lines[$_] = "-- " . $lines[$_] for $at[0] .. $at[0] + $count - 1;
      }
    }
    $lines[0] = "_port = true _soft = true " . $lines[0];
    open(my $out, ">:raw", $file) or die "cannot write $file\n";
    print $out @lines;
  ' "$copy/$name.lua" 2>&1); then
    echo "$name.lua: failed: $problem"
    failed=$((failed + 1))
    continue
  fi
  if output=$(cd "$copy" && "$waymark" run "$name.lua" --trace none 2>&1); then
    echo "$name.lua: passed"
    passed=$((passed + 1))
  else
    echo "$name.lua: failed: $(grep -m1 -v '^\s*$' <<<"$output" | cut -c1-300)"
    failed=$((failed + 1))
  fi
done
[ $((passed + failed)) = 0 ] && echo "lua-suite: none of Lua's test files (${files[*]/%/.lua}) is in $dir" >&2
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
