import WaymarkCore

print("waymark \(WaymarkVersion.current)")
