-- Shared samples, required as 'spec/support/samples' (a path with slashes, as busted's
-- require allows).
return {
  fruit = { "apple", "pear", "apple", "fig" },
}
