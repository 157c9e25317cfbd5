-- issue 7: this trapped in TileSet.init (Double value cannot be converted to Int).
waymark.map{ size = { width = 1e308, height = 1534 } }
