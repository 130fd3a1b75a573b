import Foundation

/// Someone in a family's tree who is not (or not yet) a user: an ancestor, someone who died, a
/// child too young for an account. In links (`FamilyLink`) a person is `treeID`: minus their
/// number, while members are their account's (positive) id. A member who claims a person
/// becomes them: the person's facts stay, their links move to the account.
public struct FamilyPerson: Sendable, Equatable {
    /// The person's number in the family's store (`!person N`).
    public var id: Int64
    public var familyId: Int64
    public var name: String
    /// As GEDCOM's SEX: "F", "M", or nil when not said (kinship words then stay neutral).
    public var sex: String?
    /// Dates as given: YYYY, YYYY-MM or YYYY-MM-DD (`FamilyPersonRules.date`).
    public var born: String?
    public var bornPlace: String?
    public var died: String?
    public var diedPlace: String?
    /// The member this person is, once claimed.
    public var accountId: Int64?
    /// A member who asked to be this person, waiting for the family's consent.
    public var claimantId: Int64?
    public var addedBy: Int64?
    public var createdAt: Date

    public init(
        id: Int64 = 0, familyId: Int64, name: String, sex: String? = nil, born: String? = nil, bornPlace: String? = nil,
        died: String? = nil, diedPlace: String? = nil, accountId: Int64? = nil, claimantId: Int64? = nil,
        addedBy: Int64? = nil, createdAt: Date = Date()
    ) {
        (self.id, self.familyId, self.name, self.born, self.bornPlace) = (id, familyId, name, born, bornPlace)
        (self.died, self.diedPlace, self.accountId, self.claimantId) = (died, diedPlace, accountId, claimantId)
        (self.addedBy, self.createdAt, self.sex) = (addedBy, createdAt, sex)
    }

    /// Who this person is in the family's links.
    public var treeID: Int64 { accountId ?? FamilyPerson.treeID(person: id) }

    public static func treeID(person: Int64) -> Int64 { -person }

    /// The person's number when `treeID` names a person who is not a user.
    public static func person(treeID: Int64) -> Int64? { treeID < 0 ? -treeID : nil }
}

public enum FamilyPersonError: Error, Equatable, Sendable {
    /// The family holds `FamilyPersonRules.maxPeople` people already.
    case tooMany
    /// An import would take the family's `held` people past `FamilyPersonRules.maxPeople`.
    case tooManyToImport(held: Int, adding: Int)
    /// The person is someone's already.
    case claimed
    /// The account is a person of this family already.
    case alreadyAPerson
}

/// The rules of people who are not users, the same on every engine.
public enum FamilyPersonRules {
    /// People (not users) one family may hold.
    public static let maxPeople = 2000
    public static let maxName = 80
    public static let maxPlace = 80

    /// A date as genealogy gives them: a year, a month or a day (YYYY, YYYY-MM, YYYY-MM-DD), from
    /// year 1 to 9999, no later than `today` when given. Nil if it is none of these.
    public static func date(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 }),
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers[0] >= 1 else { return nil }
        if numbers.count > 1, !(1...12).contains(numbers[1]) { return nil }
        if numbers.count > 2 {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let components = DateComponents(year: numbers[0], month: numbers[1], day: numbers[2])
            guard components.isValidDate(in: calendar) else { return nil }
        }
        return text
    }

    public static func checkAdding(count: Int) throws {
        guard count < maxPeople else { throw FamilyPersonError.tooMany }
    }

    /// Claiming: the person is nobody's yet, and the account is no other person of the family.
    public static func checkClaim(person: FamilyPerson, accountIsAPerson: Bool) throws {
        guard person.accountId == nil else { throw FamilyPersonError.claimed }
        if accountIsAPerson { throw FamilyPersonError.alreadyAPerson }
    }

    /// The person's links with `treeID` changed to the account's id, for `FamilyRules.link` to
    /// check again one by one (a link between the two becomes a self link and is refused).
    public static func moved(_ links: [FamilyLink], from old: Int64, to new: Int64) -> [FamilyLink] {
        links.filter { $0.from == old || $0.to == old }.map { link in
            var moved = link
            if moved.from == old { moved.from = new }
            if moved.to == old { moved.to = new }
            return moved
        }
    }
}
