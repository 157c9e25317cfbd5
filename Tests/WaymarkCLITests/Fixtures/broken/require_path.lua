local plugin = {}

function plugin.setup(map)
  local native = package.loadlib("./native.so", "luaopen_native")
  native()
end

return plugin
