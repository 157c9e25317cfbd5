import Foundation

extension LocalTime {
  /// The UTC offset and daylight saving of `zone` (UTC when nil) at `time`, seconds since 1970.
  static func localType(at time: Int, in zone: TimeZone?) -> (offset: Int, isDST: Bool) {
    guard let zone else { return (0, false) }
    let date = Date(timeIntervalSince1970: Double(time))
    return (zone.secondsFromGMT(for: date), zone.isDaylightSavingTime(for: date))
  }

  /// The time a local date names in `zone`, as glibc's `mktime` finds it (`mktime.c`, which
  /// Lua's `os.time` calls), so that the sandbox answers what `lua5.4` does with `TZ` set to
  /// the zone:
  /// - `fields` is the date read as UTC, normalized (`timegm`), its seconds clamped to 0...59;
  ///   the seconds past that range (`extraSeconds`) are added once the offset is found;
  /// - the offset is found by probing, the first guess UTC's (glibc's first call in a
  ///   process): a time in a daylight-saving gap or overlap is resolved as glibc resolves it;
  /// - `isdst` (Lua's field: -1 when nil, else 0 or 1) different from the zone's at the time
  ///   found takes the offset of the nearest time whose daylight saving is the one asked for
  ///   (probing a week at a time, up to about 7 years either way), else shifts by an hour:
  ///   `isdst = true` in winter names the instant an hour earlier.
  ///
  /// Nil when glibc's would fail (probes that never settle), which Lua reports as "time result
  /// cannot be represented".
  static func makeTime(utcValue requested: Int, extraSeconds: Int, isdst: Int, zone: TimeZone?) -> Int? {
    let stride = 601_200  // glibc: the shortest period of DST or of non-DST in the database
    let durationMax = 457_243_209  // glibc: the longest period whose DST difference is not one hour
    var t = requested
    var (t1, t2) = (t, t)
    var previousIsDST = false
    var probes = 6
    var found: Int?
    while found == nil {
      let type = localType(at: t, in: zone)
      let difference = requested - (t + type.offset)
      if difference == 0 { break }
      // Oscillating between two times: the requested time is in a gap. Without isdst the
      // one in daylight saving is taken; with it, the one whose daylight saving differs.
      if t == t1, t != t2, isdst < 0 ? !previousIsDST || type.isDST : (isdst != 0) != type.isDST {
        found = t
        break
      }
      probes -= 1
      guard probes > 0 else { return nil }
      (t1, t2, previousIsDST) = (t2, t, type.isDST)
      t += difference
    }
    if found == nil {
      let isDST = localType(at: t, in: zone).isDST
      found = t
      if isdst >= 0, (isdst != 0) != isDST {
        found =
          neighbourOffsetTime(
            requested, from: t, wantsDST: isdst != 0, zone: zone, stride: stride, bound: durationMax / 2 + stride)
          ?? t + 3600 * ((isdst == 0 ? 1 : 0) - (isDST ? 0 : 1))
      }
    }
    return found.map { $0 + extraSeconds }
  }

  /// The requested time with the offset of the nearest time around `t` (a stride at a time,
  /// earlier first) whose daylight saving is `wantsDST`, nil if none lies within `bound`.
  private static func neighbourOffsetTime(
    _ requested: Int, from t: Int, wantsDST: Bool, zone: TimeZone?, stride: Int, bound: Int
  ) -> Int? {
    var delta = stride
    while delta < bound {
      for direction in [-1, 1] {
        let type = localType(at: t + delta * direction, in: zone)
        if type.isDST == wantsDST { return requested - type.offset }
      }
      delta += stride
    }
    return nil
  }
}
