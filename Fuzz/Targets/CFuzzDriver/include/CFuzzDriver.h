#ifndef WAYMARK_CFUZZDRIVER_H
#define WAYMARK_CFUZZDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer (its command line, its corpus and options) on `test_one_input`, as its own
/// `main` would: a fuzz target's `main` calls this, since SwiftPM gives every executable a
/// Swift entry point.
int waymark_fuzz_main(int argc, char **argv, int (*test_one_input)(const uint8_t *data, size_t size));

#endif
