return {
  { name = "Tower", minutes = 20 },
  { name = "Louvre", minutez = 90 },
}
