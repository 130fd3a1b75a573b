import Foundation
import HearthKit
import HearthStore

/// `/shop`: the family's shopping list and week of meals on a phone. Ticking and adding are
/// forms run as `!shop tick N` (N the item's own number, so a list changed since the page was
/// drawn ticks the item pressed) and `!shop add ITEM`, so the web obeys chat's rules.
enum MealPlanPages {
    static let template = """
        <h1>{{whose}} shopping list</h1>
        {{#none}}<p>The list is empty. Plan a meal in chat (<code>!plan sat 12</code>) or add a thing here.</p>{{/none}}
        <ul class="shop">
          {{#items}}<li{{#ticked}} class="ticked"{{/ticked}}><form method="post" action="/shop/tick">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="n" value="{{n}}">
            <input type="hidden" name="ticked" value="{{next}}">
            <button class="tick" aria-pressed="{{pressed}}" aria-label="{{label}}">{{mark}}</button>
            <span>{{text}}</span></form></li>
          {{/items}}
        </ul>
        <form method="post" action="/shop/add" class="shop-add"><input type="hidden" name="csrf" value="{{csrf}}">
          <label>Add <input name="item" maxlength="{{max}}" required placeholder="coffee"></label>
          <button>Add</button></form>
        <section class="card"><h2>The week</h2>
          {{#planned}}<ul class="plan">{{#days}}<li><b>{{day}}</b>
            {{#meals}}<a href="/r/{{id}}">{{title}}</a> {{/meals}}</li>{{/days}}</ul>{{/planned}}
          {{^planned}}<p>Nothing planned yet: <code>!plan sat 12</code> puts recipe 12 on Saturday.</p>{{/planned}}
        </section>
        <p class="commands">In chat: <code>!plan</code> · <code>!shop</code> · <code>!shop tick N</code> ·
          <code>!cook with eggs, flour</code></p>
        """

    static let shop = WebPage("/shop", name: "shop", template: template) { request in
        let viewer = try request.signedIn("Sign in to see your family's shopping list.")
        let store = request.services.store
        let (household, whose) = try await MealPlanCommands.household(store, accountID: viewer.id)
        let items = try await store.shopItems(household)
        let meals = try await store.mealPlan(household)
        let days: [[String: Any]] = MealPlanCommands.days.indices.compactMap { day in
            let planned = meals.filter { $0.day == day }
            if planned.isEmpty { return nil }
            return [
                "day": MealPlanCommands.dayNames[day],
                "meals": planned.map { ["id": $0.recipeID, "title": $0.title] as [String: Any] },
            ]
        }
        var values: [String: Any] = [
            "whose": whose.prefix(1).uppercased() + whose.dropFirst(), "max": MealPlanCommands.maxShopItemLength,
            "items": items.map { item in
                [
                    "n": item.number, "text": item.text, "ticked": item.ticked, "next": item.ticked ? "0" : "1",
                    "pressed": item.ticked ? "true" : "false", "mark": item.ticked ? "✓" : "☐",
                    "label": item.ticked ? "Put back on the list" : "Tick off",
                ] as [String: Any]
            },
            "days": days, "planned": !days.isEmpty,
        ]
        if items.isEmpty { values["none"] = true }
        return WebContent(title: "Shopping list", summary: "The family's shopping list and meals.", values: values)
    }

    static let actions: [WebAction] = [
        WebAction(
            "/shop/tick",
            command: { _, form in
                guard let n = form["n"].flatMap({ Int($0) }), n > 0 else { return nil }
                return "!shop \(form["ticked"] == "0" ? "untick" : "tick") \(n)"
            }, back: { _ in "/shop" }),
        WebAction(
            "/shop/add",
            command: { _, form in
                guard let text = form["item"]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty
                else { return nil }
                return "!shop add " + text.split(whereSeparator: \.isNewline).joined(separator: " ")
            }, back: { _ in "/shop" }),
    ]
}
