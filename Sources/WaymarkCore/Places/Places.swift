/// A point of interest on the base map (R17): a place Google labels, such as a park or a shop.
public struct PointOfInterest: Hashable, Sendable {
  /// Google's place id.
  public var placeID: String
  /// The label the base map shows.
  public var name: String
  /// Where it is.
  public var location: Coordinate
  /// Creates a point of interest.
  public init(placeID: String, name: String, location: Coordinate) {
    self.placeID = placeID
    self.name = name
    self.location = location
  }
}

/// A feature of a data-driven styling layer (callback 23): a place with an area.
public struct Feature: Hashable, Sendable {
  /// The feature's place id.
  public var placeID: String
  /// The area's outer ring.
  public var boundary: [Coordinate]
  /// A feature with its place id and outer ring.
  public init(placeID: String, boundary: [Coordinate]) {
    self.placeID = placeID
    self.boundary = boundary
  }
}

/// A data-driven styling layer (such as "LOCALITY"), whose features can be tapped.
public struct FeatureLayer: Hashable, Sendable {
  /// The feature type, like `GMSFeatureTypeLocality`.
  public var name: String
  /// The features of the layer.
  public var features: [Feature]
  /// A layer of these features.
  public init(name: String, features: [Feature]) {
    self.name = name
    self.features = features
  }
}

/// What the map can do with its current map id and style (callback 22).
public struct MapCapabilities: OptionSet, Hashable, Sendable {
  /// The raw bits.
  public let rawValue: Int
  /// Creates capabilities from bits.
  public init(rawValue: Int) { self.rawValue = rawValue }
  /// Advanced markers are available.
  public static let advancedMarkers = MapCapabilities(rawValue: 1)
  /// Data-driven styling is available.
  public static let dataDrivenStyling = MapCapabilities(rawValue: 2)

  /// The snake_case names of the set capabilities, sorted.
  package var names: [String] {
    var names: [String] = []
    if contains(.advancedMarkers) { names.append("advanced_markers") }
    if contains(.dataDrivenStyling) { names.append("data_driven_styling") }
    return names
  }
}
