import Testing
import WaymarkCore
import WaymarkRender

/// Cluster markers in pictures (R63): a circle of the bucket's colour with the label.
@Suite struct ClusterPictureTests {
  @Test("R63: a cluster marker is drawn as a labelled circle in the bucket's colour; items as pins")
  func labelledCircles() throws {
    let map = try MapView(camera: CameraPosition(target: Coordinate(latitude: -35, longitude: 151), zoom: 5))
    let manager = ClusterManager(map: map, options: ClusterOptions())
    let crowd = (0..<12).map { ClusterItem(id: "c\($0)", position: Coordinate(latitude: -35, longitude: 151)) }
    let pair = (0..<2).map {
      ClusterItem(id: "p\($0)", position: Coordinate(latitude: -35 + Double($0), longitude: 156))
    }
    manager.add(crowd + pair)
    manager.cluster()
    let svg = SVGRenderer().svg(of: map)
    #expect(svg.contains("<circle class=\"cluster\""))
    #expect(svg.contains("fill=\"#0099cc\"/><text class=\"cluster-label\""))
    #expect(svg.contains(">10+</text>"))
    #expect(svg.components(separatedBy: "class=\"cluster\"").count == 2, "one cluster marker")
    #expect(svg.contains("data-id=\"p0\"") && svg.contains("data-id=\"p1\""), "the pair shows its items")
  }
}
