import Foundation
import HearthTesting
import Testing

/// The web chat as people use it with an account, in real headless Chromium against a real
/// server: signed in by the site, history as you scroll, unread counts shared by devices,
/// pictures pasted, cards, typing, mentions, the channel list and conversations.
@Suite struct WebChatInBrowserTests {
    typealias Chat = ChatPageTests

    /// Signs in on the site's form, then opens /chat and waits until it is signed in (no form).
    static func signedInChat(_ browser: Chromium, _ base: String, _ name: String) async throws {
        try await browser.navigate(to: base + "/signin")
        try await browser.evaluate(
            "const f = document.querySelector('form[action=\"/signin\"]');"
                + "f.elements.name.value = \(Chromium.literal(name)); f.elements.password.value = 's3cret-pass';"
                + "f.querySelector('button').click()")
        try await browser.waitUntil("location.pathname === '/' && document.readyState === 'complete'")
        try await browser.navigate(to: base + "/chat")
        try await browser.waitUntil(
            "!document.getElementById('client').hidden "
                + "&& [...document.querySelectorAll('.log .message')].some(m => m.textContent.includes("
                + "'logged in as \(name)'))")
        #expect(try await browser.evaluate("document.getElementById('login').hidden") == "true")
    }

    static func open(_ browser: Chromium, _ name: String) async throws {
        try await browser.evaluate(
            "document.getElementById('join').value = \(Chromium.literal(name)); "
                + "document.getElementById('join-form').requestSubmit()")
        try await browser.waitUntil("document.getElementById('title').textContent === \(Chromium.literal(name))")
    }

    /// The numbers N of the lines "line N" in the buffer on screen, in order.
    static func lineNumbers(_ browser: Chromium) async throws -> [Int] {
        let json = try await browser.evaluate(
            "[...document.querySelectorAll('#messages .log:not([hidden]) .message .text')]"
                + ".map(t => t.textContent.match(/^line (\\d+)$/)).filter(m => m).map(m => Number(m[1]))")
        return try JSONDecoder().decode([Int].self, from: Data(json.utf8))
    }

    static func badge(_ name: String) -> String {
        "((document.querySelector('#buffers .buffer[data-buffer=\"\(name)\"] .count') || {}).hidden === false "
            + "? document.querySelector('#buffers .buffer[data-buffer=\"\(name)\"] .count').textContent : '')"
    }

    @Test func theSitesSignInSignsTheChatInAndScrollingUpBringsBackEarlierLines() async throws {
        try await withServer { server in
            let base = "http://127.0.0.1:\(server.httpPort)"
            try await TestClient.register(server, "ann", "s3cret-pass")
            let cook = try await TestClient.user(server, "cook")
            try await cook.send("/join #kitchen")
            try await cook.expect("You joined #kitchen")
            for n in 1...300 { try await cook.send("line \(n)") }
            try await cook.send("!whoami")  // answered after the lines above are kept
            try await cook.expect("logged in as cook")
            try await Chromium.withBrowser { browser in
                try await Self.signedInChat(browser, base, "ann")
                try await Self.open(browser, "#kitchen")
                // A first page of history, far more than the join's backlog.
                try await browser.waitUntil(
                    "document.querySelectorAll('#messages .log:not([hidden]) .message')"
                        + ".length >= 100")
                #expect(try await Self.lineNumbers(browser).last == 300)
                // Each scroll up must bring more lines (the wait below fails otherwise); how many it
                // takes depends on the pages' size and on lines the first page was still receiving.
                for _ in 0..<20 where try await Self.lineNumbers(browser).first != 1 {
                    let before = try await Self.lineNumbers(browser).count
                    try await browser.evaluate("document.getElementById('messages').scrollTop = 0")
                    try await browser.waitUntil(
                        "document.querySelectorAll('#messages .log:not([hidden]) .message').length > \(before)")
                }
                let numbers = try await Self.lineNumbers(browser)
                #expect(numbers == Array(1...300), "\(numbers.count) lines: \(numbers.prefix(20)) …")
                try await browser.screenshot(to: Chat.screenshotPath("chat-scrollback.png"))
                let problems = browser.problems()
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }

    @Test func anUnreadCountClearedOnOneDeviceClearsOnTheOther() async throws {
        try await withServer { server in
            let base = "http://127.0.0.1:\(server.httpPort)"
            try await TestClient.register(server, "ann", "s3cret-pass")
            let cook = try await TestClient.user(server, "cook")
            try await cook.send("/join #den")
            try await cook.expect("You joined #den")
            try await Chromium.withBrowser { phone in
                try await Chromium.withBrowser { laptop in
                    try await Self.signedInChat(laptop, base, "ann")
                    try await Self.signedInChat(phone, base, "ann")
                    try await Self.open(laptop, "#den")
                    try await phone.waitUntil("document.querySelector('#buffers .buffer[data-buffer=\"#den\"]')")
                    for device in [laptop, phone] {
                        try await device.evaluate("document.querySelector('#buffers .buffer-name').click()")
                        try await device.waitUntil("document.getElementById('title').textContent === 'Server'")
                    }
                    for n in 1...3 { try await cook.send("news \(n) for ann's devices") }
                    try await laptop.waitUntil("\(Self.badge("#den")) === '3'")
                    try await phone.waitUntil("\(Self.badge("#den")) === '3'")
                    try await laptop.screenshot(to: Chat.screenshotPath("chat-unread.png"))
                    // Read on the laptop: the phone's count goes too, and stays gone after a reload.
                    try await laptop.evaluate(
                        "document.querySelector('#buffers .buffer[data-buffer=\"#den\"] .buffer-name').click()")
                    try await laptop.waitUntil("\(Self.badge("#den")) === ''")
                    try await phone.waitUntil("\(Self.badge("#den")) === ''")
                    try await phone.navigate(to: base + "/chat")
                    try await phone.waitUntil("!document.getElementById('client').hidden")
                    try await Self.open(phone, "#den")
                    try await phone.waitUntil(
                        "[...document.querySelectorAll('#messages .message')]"
                            + ".some(m => m.textContent.includes('news 3'))")
                    // Nobody looks at #den now: the laptop still showing it would read news 4 at once
                    // and (rightly) clear the phone's count before the check saw it.
                    for device in [laptop, phone] {
                        try await device.evaluate("document.querySelector('#buffers .buffer-name').click()")
                        try await device.waitUntil("document.getElementById('title').textContent === 'Server'")
                    }
                    try await cook.send("news 4 for ann's devices")
                    try await phone.waitUntil("\(Self.badge("#den")) === '1'")
                    try await laptop.waitUntil("\(Self.badge("#den")) === '1'")
                    for device in [laptop, phone] {
                        let problems = device.problems()
                        #expect(problems.isEmpty, "\(problems)")
                    }
                }
            }
        }
    }

    @Test func aPastedPictureIsPostedAndTheChatShowsCardsTypingMentionsChannelsAndConversations() async throws {
        try await withServer { server in
            let base = "http://127.0.0.1:\(server.httpPort)"
            try await TestClient.register(server, "ann", "s3cret-pass")
            let cook = try await TestClient.user(server, "cook")
            try await cook.send("/join #pics")
            try await cook.expect("You joined #pics")
            let raw = try await TestClient.irc(server, nick: "rawbo", extra: ["CAP REQ :message-tags", "CAP END"])
            try await raw.send("JOIN #pics")
            try await raw.expect("JOIN")
            try await Chromium.withBrowser { browser in
                try await Self.signedInChat(browser, base, "ann")
                try await Self.open(browser, "#pics")
                try await browser.waitUntil(
                    "[...document.querySelectorAll('#messages .message')]"
                        + ".some(m => m.textContent.includes('Here:') && m.textContent.includes('rawbo'))")

                // A picture pasted into the input is uploaded and its link said in the channel.
                try await browser.evaluate(
                    """
                    (async () => {
                      const canvas = document.createElement('canvas');
                      canvas.width = 64; canvas.height = 48;
                      const g = canvas.getContext('2d'); g.fillStyle = '#c0392b'; g.fillRect(0, 0, 64, 48);
                      const blob = await new Promise((done) => canvas.toBlob(done, 'image/png'));
                      const data = new DataTransfer();
                      data.items.add(new File([blob], 'red.png', { type: 'image/png' }));
                      document.getElementById('input').dispatchEvent(
                        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
                    })()
                    """)
                try await cook.expect("[#pics] <ann> \(base)/i/")
                try await browser.waitUntil(
                    "[...document.querySelectorAll('#messages img.inline-image')]"
                        + ".some(i => i.complete && i.naturalWidth === 64)", timeout: 20)

                // A link to one of the site's pages comes with a card.
                try await cook.send("the site: \(base)/")
                try await browser.waitUntil(
                    "[...document.querySelectorAll('#messages .card strong')].some(s => s.textContent === 'Hearth')")

                // Typing, both ways.
                try await raw.send("@+typing=active TAGMSG #pics")
                try await browser.waitUntil("document.getElementById('typing').textContent === 'rawbo is typing…'")
                try await raw.send("@+typing=done TAGMSG #pics")
                try await browser.waitUntil("document.getElementById('typing').textContent === ''")
                try await browser.evaluate(
                    "const i = document.getElementById('input'); i.value = 'hel';"
                        + "i.dispatchEvent(new Event('input'))")
                try await raw.expect("+typing=active :ann!")
                try await browser.evaluate("document.getElementById('input').value = ''")

                // A mention: marked, counted and listed in Mentions, which leads back to the channel.
                try await cook.send("ann, dinner is at 7")
                try await browser.waitUntil("document.querySelector('#messages .message.highlight') !== null")
                try await browser.evaluate("document.querySelector('#buffers .buffer-name').click()")
                try await cook.send("ann? still there")
                try await browser.waitUntil("document.getElementById('mentions-count').textContent === '1'")
                try await browser.evaluate("document.getElementById('mentions-view').click()")
                try await browser.waitUntil(
                    "document.getElementById('title').textContent === 'Mentions' && "
                        + "\(Chat.shown).some(t => t.includes('#pics') && t.includes('still there'))")
                try await browser.screenshot(to: Chat.screenshotPath("chat-mentions.png"))

                // The channel list, and joining from it.
                try await cook.send("/join #garden")
                try await cook.expect("You joined #garden")
                try await browser.evaluate("document.getElementById('list-view').click()")
                try await browser.waitUntil(
                    "[...document.querySelectorAll('.channel-row')].some(r => r.textContent.includes('#garden'))")
                try await browser.screenshot(to: Chat.screenshotPath("chat-channels.png"))
                try await browser.evaluate(
                    "[...document.querySelectorAll('.channel-row')].find(r => r.textContent.includes('#garden'))"
                        + ".querySelector('button').click()")
                try await browser.waitUntil("document.getElementById('title').textContent === '#garden'")
                try await cook.expect("[#garden] * ann joined")

                // A conversation: a name opens it; the line reaches the other person privately.
                try await Self.open(browser, "#pics")
                try await browser.evaluate(
                    "[...document.querySelectorAll('#messages .log:not([hidden]) .nick .name')]"
                        + ".find(n => n.textContent === 'cook').click()")
                try await browser.waitUntil("document.getElementById('title').textContent === 'cook'")
                try await Chat.say(browser, "just us two")
                try await cook.expect("<ann> just us two")
                try await cook.send("/msg ann sure, what's up")
                try await browser.waitUntil("\(Chat.shown).some(t => t.includes(\"sure, what's up\"))")
                try await Self.open(browser, "#pics")
                try await browser.screenshot(to: Chat.screenshotPath("chat-desktop.png"))

                // A phone: nothing wider than the screen.
                try await browser.emulate(width: 390, height: 844)
                try await browser.waitUntil("innerWidth === 390")
                #expect(try await browser.evaluate("document.documentElement.scrollWidth <= innerWidth") == "true")
                try await browser.screenshot(to: Chat.screenshotPath("chat-phone.png"))
                try await browser.colorScheme("dark")
                try await browser.screenshot(to: Chat.screenshotPath("chat-phone-dark-signed-in.png"))
                let problems = browser.problems()
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }

    /// The line on screen whose words include `words`, as a JavaScript expression.
    static func line(_ words: String) -> String {
        "[...document.querySelectorAll('#messages .log:not([hidden]) .message')]"
            + ".find(m => m.querySelector('.text') && m.querySelector('.text').textContent.includes("
            + "\(Chromium.literal(words))))"
    }

    @Test func reactionsRepliesEditsAndDeletesReachAnNcUserAndAnotherBrowserAlsoAfterAReload() async throws {
        try await withServer { server in
            let base = "http://127.0.0.1:\(server.httpPort)"
            try await TestClient.register(server, "ann", "s3cret-pass")
            let cook = try await TestClient.user(server, "cook")
            try await cook.send("/join #den")
            try await cook.expect("You joined #den")
            try await Chromium.withBrowser { other in
                try await Chromium.withBrowser { browser in
                    try await other.navigate(to: base + "/chat")
                    try await Chat.connect(other, nick: "bea", channels: "#den")
                    try await other.waitUntil("document.getElementById('title').textContent === '#den'")
                    try await Self.signedInChat(browser, base, "ann")
                    try await Self.open(browser, "#den")
                    try await cook.send("soup is ready")
                    try await browser.waitUntil("\(Self.line("soup is ready"))")

                    try await browser.evaluate("\(Self.line("soup is ready")).querySelector('.react').click()")
                    try await cook.expect("* ann reacted 👍 to cook")
                    try await other.waitUntil(
                        "\(Self.line("soup is ready"))?.querySelector('.reaction')?.textContent === '👍 1'")

                    try await browser.evaluate("\(Self.line("soup is ready")).querySelector('.reply').click()")
                    try await Chat.say(browser, "coming!")
                    try await cook.expect("↪ replying to cook")
                    try await other.waitUntil(
                        "\(Self.line("coming!"))?.querySelector('.quote')?.textContent"
                            + ".includes('cook: soup is ready')")

                    try await browser.waitUntil("\(Self.line("coming!"))?.querySelector('.edit')")
                    try await browser.evaluate("\(Self.line("coming!")).querySelector('.edit').click()")
                    try await Chat.say(browser, "on my way; 5 min")
                    try await cook.expect("ann edited: on my way; 5 min")
                    try await other.waitUntil("\(Self.line("on my way; 5 min"))?.textContent.includes('(edited)')")

                    try await Chat.say(browser, "oops, wrong channel")
                    try await browser.waitUntil("\(Self.line("oops, wrong channel"))?.querySelector('.delete')")
                    try await browser.evaluate("\(Self.line("oops, wrong channel")).querySelector('.delete').click()")
                    try await other.waitUntil("\(Self.line("(deleted)"))")
                    try await browser.screenshot(to: Chat.screenshotPath("chat-reactions.png"))

                    // After a reload, history brings the reaction, the reply and the edit back.
                    try await other.navigate(to: base + "/chat")
                    try await Chat.connect(other, nick: "bea", channels: "#den")
                    try await other.waitUntil(
                        "\(Self.line("soup is ready"))?.querySelector('.reaction')?.textContent === '👍 1' "
                            + "&& \(Self.line("on my way; 5 min"))?.querySelector('.quote') "
                            + "&& !\(Self.line("oops, wrong channel"))")

                    // Search finds a line of the channel, not one of a channel ann was never in.
                    try await cook.send("/join #secret")
                    try await cook.expect("You joined #secret")
                    try await cook.send("secret soup recipe")
                    try await browser.evaluate(
                        "document.getElementById('search').value = 'soup';"
                            + "document.getElementById('search-form').requestSubmit()")
                    try await browser.waitUntil(
                        "document.getElementById('title').textContent === 'Search' && "
                            + "\(Chat.shown).some(t => t.includes('#den') && t.includes('soup is ready'))")
                    #expect(try await browser.evaluate("\(Chat.shown).some(t => t.includes('secret soup'))") == "false")
                    try await browser.screenshot(to: Chat.screenshotPath("chat-search.png"))
                    for device in [browser, other] {
                        let problems = device.problems()
                        #expect(problems.isEmpty, "\(problems)")
                    }
                }
            }
        }
    }
}
