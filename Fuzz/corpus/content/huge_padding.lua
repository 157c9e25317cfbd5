-- issue 7: padding = { top = 1e308 } trapped converting a Double to an Int.
return { text = "x", padding = { top = 1e308, left = 1e308, bottom = 1, right = 0 } }
