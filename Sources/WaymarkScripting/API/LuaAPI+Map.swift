import LuaKit
import WaymarkCore

extension LuaAPI {
  /// `Map`: camera, selection, markers, timers, logging (the projection: LuaAPI+Projection.swift).
  static let mapEntries: [LuaAPIEntry] = [
    // MARK: Properties
    .property(
      "Map", "camera", "Camera",
      "The camera { target, zoom, bearing, tilt }; assigning a camera table or update moves it at once (R24).",
      get: { bridge, stack, _ in LuaValues.push(try bridge.requireMap().camera, on: stack) },
      set: { bridge, stack, _, value in
        try bridge.requireMap().moveCamera(
          try CameraUpdateReader.read(at: value, on: stack, what: "map.camera"))
      }),
    .property(
      "Map", "selected_marker", "Marker?",
      "The selected marker; assign a marker to select it and show its window (R11), nil to deselect.",
      get: { bridge, stack, _ in bridge.push(try bridge.requireMap().selectedMarker, on: stack) },
      set: { bridge, stack, _, value in
        let map = try bridge.requireMap()
        if LuaValues.isNil(value, on: stack) { map.selectedMarker = nil; return }
        map.selectedMarker = try marker(at: value, on: stack, field: "map.selected_marker")
      }),
    .property(
      "Map", "info_window", "InfoWindow?",
      "The shown info window { marker, kind = 'window'|'contents'|'default', content, x, y, width, height } or nil; the frame is in points, tail included.",
      get: { bridge, stack, _ in pushInfoWindow(try bridge.requireMap().infoWindow, bridge, stack) }),
    .property(
      "Map", "time", "number", "Virtual time in seconds since the map was created.",
      get: { bridge, stack, _ in stack.push(try bridge.requireMap().clock.now) }),
    .property(
      "Map", "min_zoom", "number", "The smallest zoom the camera may reach (R21).",
      get: { bridge, stack, _ in stack.push(try bridge.requireMap().minZoom) }),
    .property(
      "Map", "max_zoom", "number", "The largest zoom the camera may reach (R21).",
      get: { bridge, stack, _ in stack.push(try bridge.requireMap().maxZoom) }),
    .property(
      "Map", "size", "Size",
      "The view's size in points { width, height }; assigning one resizes the view (R47: the target stays at the centre, the camera reports its new region).",
      get: { bridge, stack, _ in
        let size = try bridge.requireMap().viewSize
        stack.newTable()
        stack.push(size.width)
        stack.rawSetField("width", ofTableAt: -2)
        stack.push(size.height)
        stack.rawSetField("height", ofTableAt: -2)
      },
      set: { bridge, stack, _, value in
        let size = try viewSize(at: value, on: stack, field: "map.size").validated("map.size")
        try bridge.requireMap().setViewSize(size)
      }),
    .property(
      "Map", "policy", "string", "The behaviour policy's name: ios, android or web (R33).",
      get: { bridge, stack, _ in stack.push(try bridge.requireMap().policy.name) }),
    .property(
      "Map", "is_camera_moving", "boolean", "Whether an animation or gesture runs or idle_at is owed.",
      get: { bridge, stack, _ in stack.push(try bridge.requireMap().isCameraMoving) }),
    .property(
      "Map", "my_location_enabled", "boolean", "Whether the my-location dot and button are shown (R32).",
      get: { bridge, stack, _ in stack.push(try bridge.requireMap().isMyLocationEnabled) },
      set: { bridge, stack, _, value in
        try bridge.requireMap().isMyLocationEnabled = try LuaValues.boolean(
          at: value, on: stack, field: "map.my_location_enabled")
      }),
    .property(
      "Map", "my_location", "Coordinate?",
      "What the map reports as the user's location (R52): the device location while my_location_enabled, else nil. Assigning sets the device location.",
      get: { bridge, stack, _ in pushLocation(try bridge.requireMap().myLocation, on: stack) },
      set: { bridge, stack, _, value in
        try bridge.requireMap().deviceLocation = try location(at: value, on: stack, field: "map.my_location")
      }),
    .property(
      "Map", "device_location", "Coordinate?",
      "The simulated device location (R52), an input kept whether my location is on or off; nil until known.",
      get: { bridge, stack, _ in pushLocation(try bridge.requireMap().deviceLocation, on: stack) },
      set: { bridge, stack, _, value in
        try bridge.requireMap().deviceLocation = try location(at: value, on: stack, field: "map.device_location")
      }),

    // MARK: Camera
    .method(
      "Map", "animate", [.init("update", "Camera|CameraUpdate"), .init("options", "AnimationOptions?")],
      "Animates the camera (R23, R26, R27): only the fields given move; duration defaults to 0.3 s.",
      { bridge, context in
        let stack = context.stack
        let update = try CameraUpdateReader.read(at: 2, on: stack, what: "animate")
        let options = try AnimationOptions.read(
          at: 3, on: stack, what: "animate options", easing: false)
        try bridge.requireMap().animate(update, duration: options.duration, completion: options.completion)
        return 0
      }),
    .method(
      "Map", "move_camera", [.init("update", "Camera|CameraUpdate")],
      "Moves the camera at once (R24): will_move, one did_change, idle_at at the next frame.",
      { bridge, context in
        try bridge.requireMap().moveCamera(
          try CameraUpdateReader.read(at: 2, on: context.stack, what: "move_camera"))
        return 0
      }),
    .method(
      "Map", "set_min_max_zoom", [.init("min", "number"), .init("max", "number")],
      "Sets the zoom range (R21), clamping the camera at once; min > max is an error.",
      { bridge, context in
        try bridge.requireMap().setMinMaxZoom(min: try context.checkNumber(2), max: try context.checkNumber(3))
        return 0
      }),

    // MARK: Markers
    .method(
      "Map", "add_marker", [.init("options", "MarkerOptions")], returns: "Marker",
      "Adds a marker (R1 names: position required; id, title, snippet, z_index, ...).",
      { bridge, context in
        let stack = context.stack
        try bridge.quota.requireRoomForObject("add_marker")
        let (options, present) = try readMarkerOptions(at: 2, on: stack, bridge: bridge)
        let map = try bridge.requireMap()
        let serial = map.nextMarkerSerial
        let marker = try map.addMarker(options)
        bridge.quota.added(marker)
        MarkerField.applyAfterwards(present, ofTableAt: 2, to: marker, bridge, on: stack)
        bridge.pushCreated(marker, serial: serial, on: stack)
        if present.hasUserData {
          stack.rawGetField("user_data", ofTableAt: 2)
          try bridge.setUserData(of: -2, to: -1, on: stack)
          stack.pop()
        }
        return 1
      }),
    .method(
      "Map", "remove_marker", [.init("marker", "Marker")],
      "Removes a marker (R2, R12); same as marker.map = nil. Deferred inside marker_info_window (R13).",
      { bridge, context in
        try bridge.requireMap().remove(try marker(argument: 2, context))
        return 0
      }),
    .method(
      "Map", "clear", [], "Removes every marker and overlay (R2, R12).",
      { bridge, context in
        try bridge.requireMap().clear()
        return 0
      }),
    .method(
      "Map", "marker", [.init("id", "string")], returns: "Marker?", "The marker with this id, if on the map.",
      { bridge, context in
        bridge.push(try bridge.requireMap().marker(id: try context.checkString(2)), on: context.stack)
        return 1
      }),
    .method(
      "Map", "markers", returns: "Marker[]", "Every marker on the map, in the order they were added.",
      { bridge, context in
        let markers = try bridge.requireMap().markers
        let stack = context.stack
        stack.newTable(arrayCount: Int32(clamping: markers.count))
        for (i, marker) in markers.enumerated() {
          bridge.push(marker, on: stack)
          stack.rawSetIndex(i + 1, ofTableAt: -2)
        }
        return 1
      }),
    .method(
      "Map", "animate_marker",
      [
        .init("marker", "Marker"), .init("target", "Coordinate|MarkerAnimationTarget"),
        .init("options", "MarkerAnimationOptions?"),
      ],
      "Moves a marker's position, or any of { position, rotation, opacity } (R46), over `duration` seconds (default 1, linear), then on_complete(finished).",
      { bridge, context in
        return try animateMarker(bridge, context, markerArgument: 2)
      }),

    // MARK: Time and logging
    .method(
      "Map", "after", [.init("seconds", "number"), .init("callback", "fun()")], returns: "Timer",
      "Calls `callback` after `seconds` of virtual time; returns a timer with :cancel().",
      { bridge, context in
        let seconds = try context.checkNumber(2)
        guard seconds.isFinite, seconds >= 0, seconds <= VirtualClock.longestStep else {
          throw context.argumentError(2, "seconds must be a finite number from 0 to 1e9")
        }
        try context.checkFunction(3)
        let stack = context.stack
        stack.pushValue(at: 3)
        let callback = stack.ref()
        let map = try bridge.requireMap()
        let timer = LuaTimer()
        // The clock keeps the function's reference only: once the state has closed, the
        // timer finds no bridge and does nothing.
        let task = map.clock.schedule(at: map.clock.now + seconds) { [timer] in
          if let task = timer.task { LuaMapBridge.of(callback)?.timers[task] = nil }
          timer.task = nil
          LuaMapBridge.invoke(callback, context: "timer")
        }
        timer.task = task
        bridge.timers[task] = timer
        stack.push(timer, as: LuaMapBridge.timerType)
        return 1
      }),
    .method(
      "Map", "log", [.init("...", "any")],
      "Adds a `log` record to the trace (values joined by tabs), as print does.",
      { bridge, context in
        let text = try bridge.printedText(from: 2, on: context.stack)
        try bridge.requireMap().log(text, source: bridge.logSource)
        return 0
      }),
  ]

  /// `Timer`.
  static let timerEntries: [LuaAPIEntry] = [
    .property(
      "Timer", "pending", "boolean", "Whether the callback still waits.",
      get: { _, stack, object in
        stack.push(stack.object(at: object, as: LuaMapBridge.timerType)?.isPending ?? false)
      }),
    .method(
      "Timer", "cancel", [], "Cancels the callback; nothing happens if it already ran.",
      { bridge, context in
        let timer = try context.checkObject(1, as: LuaMapBridge.timerType)
        if let task = timer.task {
          bridge.map?.clock.cancel(task)
          bridge.timers[task] = nil
          timer.task = nil
        }
        return 0
      }),
  ]

  /// Options of `add_marker`, and the fields the table sets (its `user_data` among them).
  ///
  /// One pass over the table's keys copies the fields it sets (two or three of twenty, as a
  /// rule) to stack slots of their own (``MarkerField/slots``); only those are read, in
  /// ``MarkerField/all``'s order, so that the first bad field named does not depend on the
  /// table's order. An absent field keeps its default, which is what assigning nil gives. A
  /// key that is no field is named by `requireKnownFields`.
  static func readMarkerOptions(at index: Int32, on stack: LuaStack, bridge: LuaMapBridge) throws(LuaFunctionError)
    -> (MarkerOptions, MarkerField.Present)
  {
    guard stack.type(at: index) == .table else {
      throw LuaValues.typeError("add_marker", expected: "a table of marker options", at: index, on: stack)
    }
    let index = stack.absoluteIndex(index)
    let count = Int32(MarkerField.slots.count)
    guard stack.reserve(count + 8) else { throw LuaFunctionError("add_marker: the Lua stack is full") }
    let top = stack.top
    defer { stack.setTop(top) }
    bridge.pushMarkerFieldSlots(on: stack)
    guard let (base, mask) = stack.gatherFields(ofTableAt: index, slotsAt: stack.top, count: count) else {
      try LuaAPIShape.markerOptions.requireKnownFields(ofTableAt: index, on: stack, what: "add_marker")
      throw LuaFunctionError("add_marker: a key that is not a marker option")
    }
    let present = MarkerField.Present(mask: mask)
    guard present.contains(MarkerField.positionSlot) else {
      throw LuaFunctionError("add_marker: position is required")
    }
    let position = try LuaValues.coordinate(
      at: base + Int32(MarkerField.positionSlot), on: stack, field: "marker.position")
    var options = MarkerOptions(position: position)
    if present.contains(MarkerField.idSlot) {
      options.id = try LuaValues.optionalString(at: base + Int32(MarkerField.idSlot), on: stack, field: "marker.id")
    }
    var rest = mask & MarkerField.assignedSlots
    while rest != 0 {
      let slot = rest.trailingZeroBitCount
      rest &= rest - 1
      try MarkerField.all[slot].assign?(stack, base + Int32(slot), &options)
    }
    return (options, present)
  }

  static func pushInfoWindow(_ window: InfoWindow?, _ bridge: LuaMapBridge, _ stack: LuaStack) {
    guard let window else { return stack.pushNil() }
    stack.newTable()
    bridge.push(window.marker, on: stack)
    stack.rawSetField("marker", ofTableAt: -2)
    stack.push(window.kindName)
    stack.rawSetField("kind", ofTableAt: -2)
    if let content = window.content, let value = bridge.contentStore?.value(for: content) {
      ContentConversion.push(value, on: stack)
      stack.rawSetField("content", ofTableAt: -2)
    }
    if let frame = bridge.map?.infoWindowFrame {
      let size = window.layout.size
      for (key, value) in [("x", frame.x), ("y", frame.y), ("width", size.width), ("height", size.height)] {
        stack.push(value)
        stack.rawSetField(key, ofTableAt: -2)
      }
    }
  }

  /// Pushes a location, or nil when unknown.
  static func pushLocation(_ location: Coordinate?, on stack: LuaStack) {
    if let location { LuaValues.push(location, on: stack) } else { stack.pushNil() }
  }

  /// The location a script assigns to `field`: a coordinate, or nil for unknown.
  static func location(at value: Int32, on stack: LuaStack, field: String) throws -> Coordinate? {
    LuaValues.isNil(value, on: stack)
      ? nil : try LuaValues.coordinate(at: value, on: stack, field: field).validated(field)
  }
}
