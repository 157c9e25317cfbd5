print("waymark-bench")
