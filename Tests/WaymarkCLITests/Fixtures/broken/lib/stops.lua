return { "Tower", "Louvre" }
