-- waymark.lua: the store locator's project file (docs/projects.md). Every `waymark` command
-- run in this folder, or on a file in it, takes its defaults from here.
return {
  -- require roots after the requiring file's folder: lib/ (the stores module), then Debian's
  -- pure-Lua libraries (Penlight, dkjson: apt-get install lua-penlight lua-dkjson)
  modules = { "lib", "/usr/share/lua/5.4" },
  data = { "data" },        -- what waymark.data may read: the stores' CSV and the suburbs' GeoJSON
  plugins = { "plugins/stores" },  -- loaded into every map: the stores plugin
  -- setup(map, settings) of the plugin named stores: how close to closing time a window warns
  settings = { stores = { closing_soon_minutes = 30 } },
  -- local time: 8:30 on a Monday morning in Melbourne, whatever the machine's time zone
  clock = { start = "2025-06-02T08:30:00", zone = "Australia/Melbourne" },
  test = { paths = { "tests" } },  -- what `waymark test` runs with no PATH
}
