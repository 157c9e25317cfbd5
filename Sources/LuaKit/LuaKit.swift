// The safe Swift face of the Lua C API lands here (issue 3).
