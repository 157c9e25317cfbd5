import Foundation
import Testing
import WaymarkCore

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// An SVG document parsed with Foundation's XML parser (so a malformed document fails), as a
/// tree of elements.
final class SVGElement {
  let name: String
  let attributes: [String: String]
  var children: [SVGElement] = []
  var text = ""
  weak var parent: SVGElement?

  init(name: String, attributes: [String: String]) {
    self.name = name
    self.attributes = attributes
  }

  subscript(_ attribute: String) -> String? { attributes[attribute] }

  /// Every element below this one, depth first, in document order.
  var descendants: [SVGElement] { children.flatMap { [$0] + $0.descendants } }

  /// The descendants named `name` with `class` equal to `className` (if given).
  func all(_ name: String, class className: String? = nil) -> [SVGElement] {
    descendants.filter { $0.name == name && (className == nil || $0["class"] == className) }
  }

  /// The text of every `<text>` below, in document order.
  var texts: [String] { all("text").map(\.text) }

  func number(_ attribute: String) -> Double? { attributes[attribute].flatMap(Double.init) }

  /// The affine transform of `transform="translate(..) scale(..) rotate(..) translate(..)"` as a
  /// function from the element's own coordinates to the parent's.
  var transform: (Point) -> Point {
    guard let text = attributes["transform"] else { return { $0 } }
    var steps: [(Point) -> Point] = []
    for match in text.matches(of: /(translate|rotate|scale)\(([^)]*)\)/) {
      let values = match.2.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
      if match.1 == "translate" {
        let dx = values[0], dy = values.count > 1 ? values[1] : 0
        steps.append { Point(x: $0.x + dx, y: $0.y + dy) }
      } else if match.1 == "scale" {
        let sx = values[0], sy = values.count > 1 ? values[1] : values[0]
        steps.append { Point(x: $0.x * sx, y: $0.y * sy) }
      } else {
        let radians = values[0] * .pi / 180, c = cos(radians), s = sin(radians)
        steps.append { Point(x: $0.x * c - $0.y * s, y: $0.x * s + $0.y * c) }
      }
    }
    return { point in steps.reversed().reduce(point) { $1($0) } }
  }
}

enum SVGDocument {
  /// Parses `text`; records an issue and returns nil if it is not well-formed.
  static func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> SVGElement? {
    let delegate = Builder()
    let parser = XMLParser(data: Data(text.utf8))
    parser.delegate = delegate
    guard parser.parse(), let root = delegate.root else {
      Issue.record("not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")", sourceLocation: sourceLocation)
      return nil
    }
    return root
  }

  private final class Builder: NSObject, XMLParserDelegate {
    var root: SVGElement?
    var stack: [SVGElement] = []

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      let element = SVGElement(name: name, attributes: attributes)
      element.parent = stack.last
      stack.last?.children.append(element)
      if root == nil { root = element }
      stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      stack.last?.text += string
    }
  }
}
