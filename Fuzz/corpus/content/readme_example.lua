return {
  vstack = {
    { text = "Melbourne", style = "title" },
    { hstack = {
        { image = "Icon", width = 40, height = 40 },
        { text = "Capital of Victoria\nPop. 5 million", style = "caption", color = "gray" },
      }, spacing = 8, align = "center" },
  },
  spacing = 4, padding = 8, background = "#FFFFFF", corner_radius = 8,
}
