-- A small shop finder, the plugin of the example test suite in tests/ (README, "Waymark as a
-- test tool in CI").
--
-- Markers whose user_data is { shop = true, ... } are shops. A tap on a closed shop
-- ({ closed = true }) is handled here (true: no selection, no window) and logged; an open
-- shop gets a whole custom window with its name, what it sells and how many of its items are
-- in the cart. A tap on that window puts one more in the cart.
---@type Plugin
local plugin = { name = "shop" }

local cart = {}

local function shop_of(marker)
  local data = marker.user_data
  if type(data) == "table" and data.shop then return data end
  return nil
end

function plugin.did_tap_marker(map, marker)
  local shop = shop_of(marker)
  if shop and shop.closed then
    print((marker.title or marker.id) .. " is closed")
    return true
  end
end

function plugin.marker_info_window(map, marker)
  local shop = shop_of(marker)
  if not shop then return nil end
  return {
    { text = marker.title or marker.id, style = "title" },
    { text = shop.sells or "a bit of everything", style = "body" },
    { text = (cart[marker.id] or 0) .. " in your cart", style = "caption" },
  }
end

function plugin.did_tap_info_window(map, marker)
  if not shop_of(marker) then return end
  cart[marker.id] = (cart[marker.id] or 0) + 1
  print("cart: " .. cart[marker.id] .. " from " .. marker.id)
end

return plugin
