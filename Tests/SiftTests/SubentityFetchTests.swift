import Sift
import Testing

// A KeyValueReadable class is final (its key table is `KeyTable<Self>`), so
// its sub-entities are the classes it inherits from: Core Data's
// `NSManagedObject` subclasses have this shape.
class Vehicle: @unchecked Sendable {
    let wheels: Int
    init(wheels: Int) { self.wheels = wheels }
}

final class Car: Vehicle, KeyValueReadable, @unchecked Sendable {
    static let keyTable = KeyTable<Car>(["wheels": { .int($0.wheels) }])
}

final class Bike: Vehicle, KeyValueReadable, @unchecked Sendable {
    static let keyTable = KeyTable<Bike>(["wheels": { .int($0.wheels) }])
}

struct Cart: KeyValueReadable {
    var wheels: Int
    static let keyTable = KeyTable<Cart>(["wheels": { .int($0.wheels) }])
}

struct SubentityFetchTests {
    let values: [Value] = [
        Car(wheels: 4).predicateValue, Bike(wheels: 2).predicateValue, Cart(wheels: 2).predicateValue,
        Car(wheels: 3).predicateValue, .dictionary(["wheels": .int(6)]),
    ]

    func wheels(_ request: FetchSpecification) throws -> [Value?] {
        try request.execute(on: values).map { v -> Value? in
            switch v {
            case .object(let o): return o.value(forKey: "wheels")
            case .dictionary(let d): return d["wheels"]
            default: return nil
            }
        }
    }

    @Test func aSuperclassFetchIncludesItsSubclassesObjects() throws {
        #expect(try wheels(FetchSpecification(entity: "Vehicle")) == [.int(4), .int(2), .int(3), .int(6)])
        #expect(try wheels(FetchSpecification(entity: "Vehicle", filter: Filter("wheels > 2"))) == [.int(4), .int(3), .int(6)])
        #expect(try wheels(FetchSpecification(entity: "Vehicle", includesSubentities: false)) == [.int(6)])
        #expect(try wheels(FetchSpecification(entity: "Car")) == [.int(4), .int(3), .int(6)])
        #expect(try wheels(FetchSpecification(entity: "Car", includesSubentities: false)) == [.int(4), .int(3), .int(6)])
        // A struct has no sub-entities; its own name still qualifies it.
        #expect(try wheels(FetchSpecification(entity: "Cart")) == [.int(2), .int(6)])
    }

    @Test func typedArraysAnswerAsTheirValues() throws {
        let cars = [Car(wheels: 4), Car(wheels: 3)]
        for includes in [true, false] {
            #expect(try FetchSpecification(entity: "Vehicle", includesSubentities: includes).execute(on: cars).count
                == (includes ? 2 : 0))
            #expect(try FetchSpecification(entity: "Car", includesSubentities: includes).execute(on: cars).count == 2)
        }
    }

    @Test func objectsSayWhichEntitiesTheyBelongTo() {
        let car = ObjectValue(Car(wheels: 4))
        #expect(car.isOfEntity("Car", includingSubentities: false))
        #expect(car.isOfEntity("Vehicle", includingSubentities: true))
        #expect(!car.isOfEntity("Vehicle", includingSubentities: false))
        #expect(!car.isOfEntity("Bike", includingSubentities: true))
        #expect(!ObjectValue(Cart(wheels: 1)).isOfEntity("Vehicle", includingSubentities: true))
    }
}
