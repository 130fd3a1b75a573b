/// The family app's page template (Mustache, HTML-escaped by default). The site's layout
/// wraps it; `viewer` (the signed-in name) and `csrf` come from it.
enum FamilyTemplates {
    static let family = """
        <section class="family">
          <h1>🌳 {{name}}</h1>
          <p class="meta">{{memberCount}} people{{#founder}} · founded by {{founder}}{{/founder}} ·
            private channel <code>{{channel}}</code> · only its members see this page</p>
          {{#treeImage}}<figure><img src="{{treeImage}}" alt="The family tree of {{name}}" width="800">
            </figure>{{/treeImage}}
          <pre class="tree">{{tree}}</pre>
          <p class="commands">In chat: <code>!tree</code> · <code>!tree image</code> ·
            <code>!tree invite as child</code> · <code>!tree link NAME parent</code></p>
        </section>
        <section class="members">
          <h2>Members</h2>
          <table><thead><tr><th>Who</th><th>Role</th><th>Joined</th></tr></thead>
          <tbody>
          {{#members}}<tr><td><a href="/u/{{nameKey}}">{{name}}</a></td><td>{{role}}</td><td>{{joined}}</td></tr>
          {{/members}}
          </tbody></table>
        </section>
        <section class="feed">
          <h2>Feed ({{postCount}})</h2>
          {{#posts}}
          <div class="card post" id="p{{id}}">
            <p class="meta">#{{id}} <a href="/u/{{authorKey}}">{{author}}</a> <span class="ago">{{ago}}</span></p>
            <p>{{#event}}📅 <b>{{event}}</b> {{/event}}<span class="text">{{text}}</span></p>
            {{#image}}<figure><img src="{{image}}" alt="{{author}}'s picture" loading="lazy"></figure>{{/image}}
            <p class="meta">♥ {{likes}} · {{comments}} comments · <code>!like post {{id}}</code> ·
              <code>!comment post {{id}} TEXT</code></p>
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
          <p class="commands">In chat: <code>!loc on</code> · <code>!loc LAT,LON LABEL</code> · <code>!where</code> ·
            <code>!map family</code></p>
        </section>
        """
}
