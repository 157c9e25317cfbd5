return { vstack = { { text = "a", color = "#GGHHII" }, { text = 0/0 }, { image = "", width = -1, height = 1/0 } }, spacing = -0.0, padding = { top = 0/0 }, corner_radius = "6" }
