/// The fortunes app's page templates (Mustache, HTML-escaped by default). The site's layout
/// wraps them; `viewer` (the signed-in name) and `csrf` (every form's token) come from it.
enum FortuneTemplates {
    /// The time left until the next cookie (a script ticks it down).
    static let countdown = """
        {{#next}}<p class="countdown">Next cookie in <time class="left" datetime="{{at}}">{{left}}</time>
          <span class="meta">(midnight, {{zone}})</span></p>{{/next}}
        """
    /// The form that opens today's cookie (the `!fortune` command), optionally at a place.
    static let openForm = """
        <form method="post" action="/fortunes" class="cookie closed">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <p class="shell" aria-hidden="true">🥠</p>
          <p>Today's cookie is waiting.</p>
          <label>Where are you? (optional: a city, or LAT,LON and a name)
            <input name="place" maxlength="80" placeholder="Paris or 48.85,2.35 Paris"></label>
          <label>From (optional)
            <select name="category"><option value="">your categories</option>
              {{#categories}}<option>{{.}}</option>{{/categories}}</select></label>
          <button>Crack it open</button></form>
        """

    static let person = """
        <section class="fortune">
          <h1>🥠 {{whose}} fortune cookie</h1>
          <p class="meta">{{day}} · {{points}} points · <a href="/u/{{nameKey}}">profile</a>
            {{#own}}· <a href="/fortunes">your fortune map</a>{{/own}}</p>
          {{#today}}
          <article class="cookie opened">
            <p class="shell" aria-hidden="true">🥠</p>
            <blockquote class="saying">“{{text}}”</blockquote>
            <p class="lucky">Lucky numbers: {{#numbers}}<b class="number">{{.}}</b> {{/numbers}}</p>
            <p class="meta">Cookie #{{id}} · {{date}}{{#place}} · opened in {{place}}{{/place}} ·
              +{{points}} points</p>
          </article>
          {{/today}}
          \(countdown)
          {{^today}}{{^canOpen}}<p class="empty">{{name}} has not opened today's cookie yet.</p>{{/canOpen}}{{/today}}
          {{#canOpen}}
          \(openForm)
          {{/canOpen}}
          <p class="commands">In chat: <code>!fortune</code> · <code>!fortunes {{name}}</code> ·
            <code>!fortune show ID</code></p>
        </section>
        {{#image}}<figure class="map"><img src="{{image}}" alt="Where {{name}} opened fortune cookies"
          width="800"></figure>{{/image}}
        <section class="history">
          <h2>Cookies so far ({{total}})</h2>
          <ol class="cookies">
          {{#cookies}}<li class="cookie small">
            <span class="meta">#{{id}} · {{day}}{{#place}} · {{place}}{{/place}}</span>
            <q>{{text}}</q> <span class="lucky">{{#numbers}}<b>{{.}}</b> {{/numbers}}</span></li>
          {{/cookies}}
          </ol>
          {{^cookies}}<p class="empty">No cookies yet.</p>{{/cookies}}
          {{> paging}}
        </section>
        <script src="{{script.countdown}}" defer></script>
        """

    static let map = """
        <section class="fortune-map">
          <h1>{{whose}} fortune map</h1>
          <p class="meta">{{cookies}} opened · {{located}} with a place ·
            <a href="/fortunes/{{nameKey}}">today's cookie and the list</a> ·
            <a href="/leaderboard">leaderboard</a></p>
          {{#canOpen}}
          \(openForm)
          {{/canOpen}}
          \(countdown)
          {{#image}}<figure><img src="{{image}}" alt="Where {{name}} opened fortune cookies" width="800">
            </figure>{{/image}}
          {{#hasPlaces}}
          <table><thead><tr><th>Place</th><th>Cookies</th><th>First</th><th>Last</th></tr></thead>
          <tbody>
          {{#places}}<tr><td>{{place}}</td><td>{{count}}</td><td>{{first}}</td><td>{{last}}</td></tr>{{/places}}
          </tbody></table>
          {{/hasPlaces}}
          {{^places}}<p class="empty">No cookies with a place yet — open one with a city or coordinates
            (in chat: <code>!fortune @Paris</code>, or <code>!set location on</code>).</p>{{/places}}
        </section>
        \(SayingPages.template)
        <script src="{{script.countdown}}" defer></script>
        """

    static let leaderboard = """
        <section class="leaderboard">
          <h1>{{#friends}}Top points among your friends{{/friends}}{{^friends}}Top points{{/friends}}</h1>
          <p class="meta">The top {{size}}: a cookie a day, streaks and first visits of the day earn points ·
            {{#friends}}<a href="/leaderboard">everyone</a>{{/friends}}
            {{^friends}}<a href="/leaderboard?friends=1">you and your friends</a>{{/friends}}</p>
          {{#hasRows}}
          <table><thead><tr><th>#</th><th>Who</th><th>Points</th></tr></thead>
          <tbody>
          {{#rows}}<tr{{#me}} class="me"{{/me}}><td>{{rank}}</td><td><a href="/u/{{nameKey}}">{{name}}</a>{{#me}}
            (you){{/me}}</td><td>{{points}}</td></tr>
          {{/rows}}
          </tbody></table>
          {{/hasRows}}
          {{^rows}}<p class="empty">Nobody has points yet — open a fortune cookie to start.</p>{{/rows}}
          <p class="commands">In chat: <code>!top points</code> · <code>!top points friends</code> ·
            <code>!points</code></p>
        </section>
        """
}
