import LuaKit
import WaymarkCore

extension LuaAPI {
  /// `Map`: points of interest (R17), data-driven styling layers (callback 23) and
  /// capabilities (callback 22), the parts of the base map a script sets up.
  static let placeEntries: [LuaAPIEntry] = [
    .method(
      "Map", "add_poi", [.init("poi", "PointOfInterest")],
      "Adds a point of interest of the base map: { place_id, name, location } (R17).",
      { bridge, context in
        let stack = context.stack
        try context.checkTable(2)
        try LuaAPIShape.pointOfInterest.requireKnownFields(ofTableAt: 2, on: stack, what: "add_poi")
        let placeID = try LuaAPIShape.pointOfInterest.withField("place_id", ofTableAt: 2, on: stack) {
          i throws(LuaFunctionError) in
          try LuaValues.string(at: i, on: stack, field: "add_poi.place_id")
        }
        let name = try LuaAPIShape.pointOfInterest.withField("name", ofTableAt: 2, on: stack) {
          i throws(LuaFunctionError) in
          try LuaValues.string(at: i, on: stack, field: "add_poi.name")
        }
        let location = try LuaAPIShape.pointOfInterest.withField("location", ofTableAt: 2, on: stack) {
          i throws(LuaFunctionError) in
          try LuaValues.coordinate(at: i, on: stack, field: "add_poi.location")
        }
        try bridge.quota.requireRoomForObject("add_poi")
        try bridge.requireMap().addPointOfInterest(PointOfInterest(placeID: placeID, name: name, location: location))
        bridge.quota.addedPlace()
        return 0
      }),
    .method(
      "Map", "add_feature_layer", [.init("layer", "FeatureLayer")],
      "Adds a data-driven styling layer: { name, features = { { place_id, boundary = { Coordinate... } } } }.",
      { bridge, context in
        try context.checkTable(2)
        try bridge.quota.requireRoomForObject("add_feature_layer")
        try bridge.requireMap().addFeatureLayer(try featureLayer(at: 2, on: context.stack))
        bridge.quota.addedPlace()
        return 0
      }),
    .property(
      "Map", "capabilities", "string[]",
      "What the map can do: a list of advanced_markers, data_driven_styling; assigning fires did_change_map_capabilities.",
      get: { bridge, stack, _ in
        let names = try bridge.requireMap().capabilities.names
        stack.newTable(arrayCount: Int32(names.count))
        for (index, name) in names.enumerated() {
          stack.push(name)
          stack.rawSetIndex(index + 1, ofTableAt: -2)
        }
      },
      set: { bridge, stack, _, value in
        guard stack.type(at: value) == .table else {
          throw LuaValues.typeError("map.capabilities", expected: "a list of capability names", at: value, on: stack)
        }
        var capabilities: MapCapabilities = []
        var budget = LuaValues.maxFields
        let count = try LuaValues.listLength(at: value, on: stack, field: "map.capabilities", budget: &budget)
        for position in 1...max(1, count) {
          guard stack.rawGetIndex(position, ofTableAt: value) != .nil else {
            stack.pop()
            break
          }
          let name = stack.string(at: -1) ?? stack.typeName(at: -1)
          stack.pop()
          switch name {
          case "advanced_markers": capabilities.insert(.advancedMarkers)
          case "data_driven_styling": capabilities.insert(.dataDrivenStyling)
          default:
            throw LuaFunctionError(
              "map.capabilities[\(position)]: \"\(name)\" is not one of advanced_markers, data_driven_styling"
                + Suggestion.hint(for: name, among: ["advanced_markers", "data_driven_styling"]))
          }
        }
        try bridge.requireMap().capabilities = capabilities
      }),
  ]

  private static func featureLayer(at index: Int32, on stack: LuaStack) throws(LuaFunctionError) -> FeatureLayer {
    try LuaAPIShape.featureLayer.requireKnownFields(ofTableAt: index, on: stack, what: "add_feature_layer")
    let name = try LuaAPIShape.featureLayer.withField("name", ofTableAt: index, on: stack) {
      i throws(LuaFunctionError) in
      try LuaValues.string(at: i, on: stack, field: "add_feature_layer.name")
    }
    let features = try LuaAPIShape.featureLayer.withField("features", ofTableAt: index, on: stack) {
      list throws(LuaFunctionError) -> [Feature] in
      guard stack.type(at: list) == .table else {
        throw LuaValues.typeError("add_feature_layer.features", expected: "a list of features", at: list, on: stack)
      }
      var features: [Feature] = []
      var budget = LuaValues.maxCoordinates  // features and their boundaries' corners together
      let count = try LuaValues.listLength(at: list, on: stack, field: "add_feature_layer.features", budget: &budget)
      for position in 1...max(1, count) {
        let field = "add_feature_layer.features[\(position)]"
        let feature = try stack.withStackBalance { () throws(LuaFunctionError) -> Feature? in
          guard stack.rawGetIndex(position, ofTableAt: list) == .table else { return nil }
          let item = stack.top
          try LuaAPIShape.feature.requireKnownFields(ofTableAt: item, on: stack, what: field)
          let placeID = try LuaAPIShape.feature.withField("place_id", ofTableAt: item, on: stack) {
            i throws(LuaFunctionError) in
            try LuaValues.string(at: i, on: stack, field: "\(field).place_id")
          }
          let boundary = try LuaAPIShape.feature.withField("boundary", ofTableAt: item, on: stack) {
            ring throws(LuaFunctionError) -> [Coordinate] in
            guard stack.type(at: ring) == .table else {
              throw LuaValues.typeError("\(field).boundary", expected: "a list of coordinates", at: ring, on: stack)
            }
            var points: [Coordinate] = []
            let corners = try LuaValues.listLength(at: ring, on: stack, field: "\(field).boundary", budget: &budget)
            for corner in 1...max(1, corners) {
              let point = try stack.withStackBalance { () throws(LuaFunctionError) -> Coordinate? in
                guard stack.rawGetIndex(corner, ofTableAt: ring) != .nil else { return nil }
                return try LuaValues.coordinate(at: stack.top, on: stack, field: "\(field).boundary[\(corner)]")
              }
              if let point { points.append(point) }
            }
            return points
          }
          return Feature(placeID: placeID, boundary: boundary)
        }
        guard let feature else { break }
        features.append(feature)
      }
      return features
    }
    return FeatureLayer(name: name, features: features)
  }
}
