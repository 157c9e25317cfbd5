return { "a", text = "b", [1.5] = "c", hstack = { { text = "\0\27[31m" } } }
