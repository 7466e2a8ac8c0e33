import Foundation
import Testing

@testable import Sift

struct BridgingTests {
    @Test func foundationJSON() throws {
        let text = #"{"name":"Ann","age":30,"score":1.5,"ok":true,"tags":["x"],"none":null,"big":18446744073709551615}"#
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let value = try #require(Value(any: object))
        guard case .dictionary(let d) = value else { throw CancellationError() }
        #expect(d["age"]?.typeName == "integer")
        #expect(d["score"]?.typeName == "double")
        #expect(d["ok"]?.typeName == "boolean")
        #expect(d["none"] == .nsNull)
        #expect(d["big"]?.typeName == "double")
        #expect(try Filter("name == 'Ann' AND age / 4 == 7 AND ok == YES AND #none == nil AND 'x' IN tags").evaluate(with: value))
    }

    @Test func jsonValues() throws {
        let json = try JSONValue(parsing: #"{"a": [1, 2.5, null], "b": {"c": "d"}}"#)
        #expect(json.predicateValue == ["a": [1, 2.5, .nsNull], "b": ["c": "d"]])
        #expect(JSONValue.null.predicateValue == .null)
        #expect(try Filter("b.c == 'd' AND a[1] == 2.5").compiled().evaluate(with: json))
    }

    @Test func anyDictionary() throws {
        let dict: [String: Any] = ["title": "It", "year": 1986, "when": Date(timeIntervalSinceReferenceDate: 5)]
        let value = try #require(Value(any: dict))
        #expect(try Filter("year > 1980 AND when == %@", Date(timeIntervalSinceReferenceDate: 5)).evaluate(with: value))
        #expect(Value(any: NSObject()) == nil)
    }
}
