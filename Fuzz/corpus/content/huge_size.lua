-- issue 7: a size of { width = 1e308, height = 1534 } trapped converting a Double to an Int.
return { hstack = { { image = "x", width = 1e308, height = 1534 } }, min_width = 1e308, max_width = 1e308 }
