/// The family app's page template (Mustache, HTML-escaped by default). The site's layout
/// wraps it; `viewer` (the signed-in name) and `csrf` come from it.
enum FamilyTemplates {
    /// The viewer's families as a list, each a link to its `page` (the one shown marked, not a
    /// link), then `more`: a link to the family's other page.
    static func switcher(page: String, more: String) -> String {
        """
        <nav class="families" aria-label="Your families"><ul>{{#families}}
          <li>{{#current}}<b aria-current="page">{{name}}</b>{{/current}}
            {{^current}}<a href="/family/{{id}}\(page)">{{name}}</a>{{/current}}</li>{{/families}}</ul>
          \(more)</nav>
        """
    }

    static let family = """
        \(switcher(page: "", more: #"<a class="more" href="/family/{{id}}/photos">Pictures</a>"#))
        <section class="family">
          <h1>🌳 {{name}}</h1>
          <p class="meta">{{counts}}{{#founder}} · founded by {{founder}}{{/founder}} ·
            private channel <code>{{channel}}</code> · only its members see this page</p>
          {{#treeImage}}<figure class="tree-picture"><a href="{{treeImage}}"><img src="{{treeImage}}"
            alt="The family tree of {{name}}" width="{{treeWidth}}"></a></figure>{{/treeImage}}
          <pre class="tree">{{tree}}</pre>
          <p class="commands">In chat: <code>!tree</code> · <code>!tree image</code> ·
            <code>!tree invite as child</code> · <code>!tree link NAME parent</code></p>
        </section>
        <section class="members">
          <h2>Members</h2>
          <table><thead><tr><th>Who</th><th>Role</th><th>Joined</th>{{#manages}}<th>Change</th>{{/manages}}</tr></thead>
          <tbody>
          {{#members}}<tr><td><a href="/u/{{nameKey}}">{{name}}</a></td><td>{{role}}</td><td>{{joined}}</td>
            {{#manages}}<td>{{#roleButton}}<form method="post" action="/family/{{id}}/role" class="role-form">
              <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="name" value="{{name}}">
              <input type="hidden" name="role" value="{{to}}"><button>{{label}}</button></form>{{/roleButton}}</td>
            {{/manages}}</tr>
          {{/members}}
          </tbody></table>
          {{#households}}<p class="household">🏠 {{#linked}}<a href="/family/{{id}}">{{name}}</a>{{/linked}}
            {{^linked}}<b>{{name}}</b>{{/linked}}{{#founder}} — {{founder}} left home{{/founder}}</p>
          {{/households}}
        </section>
        <section class="people" id="people">
          <h2>People who are not users</h2>
          <ul>{{#people}}<li>#{{number}} {{text}}</li>{{/people}}</ul>
          <form method="post" action="/family/{{id}}/person" class="person-form">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <input type="text" name="name" required maxlength="80" placeholder="Name" aria-label="Name">
            <select name="sex" aria-label="Sex"><option value="">sex?</option><option value="f">f</option>
              <option value="m">m</option></select>
            <input type="text" name="born" placeholder="born: 1931 or 1931-05-02" aria-label="Born">
            <input type="text" name="bornPlace" maxlength="80" placeholder="in" aria-label="Place of birth">
            <input type="text" name="died" placeholder="died" aria-label="Died">
            <input type="text" name="diedPlace" maxlength="80" placeholder="in" aria-label="Place of death">
            <button>Add to the tree</button></form>
          <p class="commands">In chat: <code>!person add "Rose Smith" born 1931 in Lyon died 2019</code> ·
            <code>!tree link #1 parent of NAME</code> · <code>!tree how NAME NAME</code> ·
            <code>!person claim N</code></p>
        </section>
        <section class="on-this-day" id="today">
          <h2>On this day, {{today}}</h2>
          <ul>{{#onThisDay}}<li>{{.}}</li>{{/onThisDay}}</ul>
          {{^onThisDay}}<p class="empty">Nothing yet on this day in earlier years.</p>{{/onThisDay}}
          <p class="commands">In chat: <code>!family today</code> · birthdays and anniversaries are
            announced in <code>{{channel}}</code> on the day</p>
        </section>
        <section class="gedcom" id="import">
          <h2>GEDCOM</h2>
          <p>Download the tree as a GEDCOM file (for Gramps, webtrees and other genealogy programs):
            <a href="{{export}}" download="tree.ged">GEDCOM 5.5.1</a> ·
            <a href="{{export7}}" download="tree.ged">GEDCOM 7.0</a> ·
            in chat: <code>!family export</code>, <code>!family export 7</code></p>
          {{#canImport}}
          <form method="post" action="/family/{{id}}/import" class="import-form" enctype="multipart/form-data">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label>A .ged file (UTF-8, at most {{maxImport}} KiB, {{maxPeople}} people)
              <input type="file" name="file" accept=".ged,text/plain"></label>
            <textarea name="gedcom" rows="6" placeholder="or paste it: 0 HEAD …" aria-label="GEDCOM text"></textarea>
            <button>Import into the tree</button></form>
          <p class="meta">People already in the tree (the same name and birth date) are not added again.</p>
          {{/canImport}}
        </section>
        <section class="feed">
          <h2>Feed ({{postCount}})</h2>
          <div class="card family-compose">
            <form method="post" action="/pictures" enctype="multipart/form-data" class="photo-form" data-drop>
              <input type="hidden" name="csrf" value="{{csrf}}">
              <input type="hidden" name="next" value="/family/{{id}}">
              <label>Add a picture <input type="file" name="file" accept="image/*"></label>
              <button>Upload</button></form>
            <form method="post" action="/family/{{id}}/post" class="post-form">
              <input type="hidden" name="csrf" value="{{csrf}}">
              {{#picture}}<input type="hidden" name="picture" value="{{picture}}">
              <p class="meta">With picture <code>{{picture}}</code>.</p>{{/picture}}
              <textarea name="text" maxlength="{{maxPost}}" placeholder="Tell the family something"></textarea>
              <button>Post</button></form>
            <form method="post" action="/family/{{id}}/event" class="event-form">
              <input type="hidden" name="csrf" value="{{csrf}}">
              <input type="date" name="date" required aria-label="Date">
              <input type="text" name="title" maxlength="{{maxPost}}" required placeholder="What happens"
                aria-label="Event">
              <button>Add event</button></form>
          </div>
          {{#posts}}
          <div class="card post" id="p{{id}}">
            <p class="meta">#{{id}} <a href="/u/{{authorKey}}">{{author}}</a> <span class="ago">{{ago}}</span></p>
            <p>{{#event}}📅 <b>{{event}}</b> {{/event}}<span class="text">{{text}}</span></p>
            {{#image}}<figure><img src="{{image}}" alt="{{author}}'s picture" loading="lazy"></figure>{{/image}}
            <p class="meta">♥ {{likes}} · {{commentsText}} · <code>!like post {{id}}</code> ·
              <code>!comment post {{id}} TEXT</code></p>
            <form method="post" action="/family/{{family}}/p/{{id}}/like" class="like-form">
              <input type="hidden" name="csrf" value="{{csrf}}">{{#liked}}<input type="hidden" name="undo" value="1">
              <button class="like on" aria-pressed="true">♥ You like this</button>{{/liked}}
              {{^liked}}<button class="like" aria-pressed="false">♥ Like</button>{{/liked}}</form>
            {{#commentList}}<p class="comment"><b>{{author}}</b> {{text}} <span class="ago">{{ago}}</span></p>
            {{/commentList}}
            <form method="post" action="/family/{{family}}/p/{{id}}/comment" class="comment-form">
              <input type="hidden" name="csrf" value="{{csrf}}">
              <input type="text" name="text" maxlength="{{maxComment}}" required placeholder="Comment"
                aria-label="Comment on post {{id}}">
              <button>Comment</button></form>
          </div>
          {{/posts}}
          {{^hasPosts}}<p class="empty">The feed is empty — in chat: <code>!post TEXT</code> or
            <code>!event DATE TITLE</code>.</p>{{/hasPosts}}
          {{> paging}}
        </section>
        <section class="places">
          <h2>Places</h2>
          {{#mapImage}}<figure><img src="{{mapImage}}" alt="{{name}}: last shared places" width="800">
            </figure>{{/mapImage}}
          <table><thead><tr><th>Who</th><th>Last place</th></tr></thead>
          <tbody>
          {{#places}}<tr><td>{{name}}</td>
            <td>{{where}}{{^where}}<span class="empty">not sharing</span>{{/where}}</td></tr>
          {{/places}}
          </tbody></table>
          <div class="card share-place" id="places">
          {{#sharing}}
            <form method="post" action="/family/{{id}}/place" data-geolocate>
              <input type="hidden" name="csrf" value="{{csrf}}">
              <input type="hidden" name="lat"><input type="hidden" name="lon">
              <button type="button" data-geolocate-button hidden>📍 Share where I am now</button>
              <input type="text" name="place" maxlength="80" placeholder="or a place: Paris" aria-label="Place">
              <button>Share this place</button>
              <span class="status" data-geolocate-status role="status"></span></form>
            <form method="post" action="/family/{{id}}/place"><input type="hidden" name="csrf" value="{{csrf}}">
              <input type="hidden" name="sharing" value="off"><button>Stop sharing my place</button></form>
          {{/sharing}}
          {{^sharing}}
            <form method="post" action="/family/{{id}}/place"><input type="hidden" name="csrf" value="{{csrf}}">
              <input type="hidden" name="sharing" value="on">
              <p>Your family does not see where you are.</p><button>Let my families see my place</button></form>
          {{/sharing}}
          </div>
          <p class="commands">In chat: <code>!loc on</code> · <code>!loc LAT,LON LABEL</code> · <code>!where</code> ·
            <code>!map family</code></p>
        </section>
        """

    static let photos = """
        \(switcher(page: "/photos", more: #"<a class="more" href="/family/{{id}}">Back to the feed</a>"#))
        <section class="family-photos">
          <h1>🖼 {{name}}: pictures</h1>
          <div class="grid">
          {{#pictures}}<figure class="card"><a href="/family/{{id}}#p{{post}}"><img src="{{image}}"
            alt="{{author}}'s picture" loading="lazy"></a><figcaption>{{author}}: {{text}}</figcaption></figure>
          {{/pictures}}
          </div>
          {{^hasPictures}}<p class="empty">No pictures yet — post one on the family's page.</p>{{/hasPictures}}
        </section>
        """
}
