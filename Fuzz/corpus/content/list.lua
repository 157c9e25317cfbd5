return { "Sydney", { text = "Harbour", max_lines = 2, align = "center" }, { image = "pin", width = 12, height = 12 } }
