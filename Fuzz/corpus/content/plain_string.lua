return "Melbourne"
