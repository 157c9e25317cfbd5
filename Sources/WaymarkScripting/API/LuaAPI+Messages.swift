import WaymarkCore

extension LuaAPI {
  /// What to say about `object.key` or `object:key()` when `owner` has no such member, the
  /// same at run time (the bridge) and in `waymark check`: when another class has that
  /// member, what probably happened (a map where a marker was meant: a handler whose first
  /// parameter is not `map`); else the likeliest meant name, if any.
  ///
  /// `Map has no field 'title' (title is a field of a Marker: this value is a Map; handlers
  /// are called as handler(map, ...), the map first)`.
  public static func unknownMember(_ key: String, of owner: String, asMethod: Bool = false) -> String {
    let what = asMethod ? "method" : "field"
    let message = "\(owner) has no \(what) '\(key)'"
    if let other = owners.map(\.name).first(where: { $0 != owner && entry($0, key) != nil }) {
      let kind = entry(other, key)?.kind == .method ? "method" : "field"
      let hint = owner == "Map" ? "; handlers are called as handler(map, ...), the map first" : ""
      return message + " (\(key) is a \(kind) of a \(other): this value is a \(owner)\(hint))"
    }
    let members = entries(of: owner).filter { !asMethod || $0.kind == .method }
    return message + Suggestion.hint(for: key, among: members.map(\.name))
  }
}
