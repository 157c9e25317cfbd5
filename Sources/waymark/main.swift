print("waymark: the command line lands with issue 4")
