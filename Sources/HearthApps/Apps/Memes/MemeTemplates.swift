/// The memes app's page templates (Mustache, HTML-escaped by default). The site's layout
/// wraps them; `viewer` (the signed-in name) and `csrf` (every form's token) come from it.
enum MemeTemplates {
    static let meme = """
        <article class="meme">
          <figure><img src="{{image}}" alt="{{caption}}" width="600"></figure>
          <h1>{{#captions}}<span class="caption">{{.}}</span> {{/captions}}</h1>
          <p class="meta">Meme #{{id}} by <a href="/u/{{authorKey}}">{{author}}</a> ·
            <time datetime="{{created}}">{{ago}}</time> · template <b>{{source}}</b></p>
          <div class="counts">
            <span>♥ {{likesText}}</span> <span>★ {{favsText}}</span>
            <span>💬 {{commentsText}}</span>
          </div>
          {{#viewer}}
          <div class="actions">
            <form method="post" action="/m/{{id}}/like"><input type="hidden" name="csrf" value="{{csrf}}">
              {{#liked}}<input type="hidden" name="undo" value="1"><button>♥ Unlike</button>{{/liked}}
              {{^liked}}<button>♥ Like</button>{{/liked}}</form>
            <form method="post" action="/m/{{id}}/fav"><input type="hidden" name="csrf" value="{{csrf}}">
              {{#faved}}<input type="hidden" name="undo" value="1"><button>★ Unfavourite</button>{{/faved}}
              {{^faved}}<button>★ Favourite</button>{{/faved}}</form>
          </div>
          {{/viewer}}
          <div class="share" data-share-url="/m/{{id}}" data-share-title="Meme #{{id}} by {{author}}">
            <a class="permalink" href="/m/{{id}}">Link to this meme</a>
            <button type="button" data-share hidden>Share…</button>
            <button type="button" data-copy hidden>Copy link</button>
            <span class="status" data-share-status role="status"></span>
          </div>
          <p class="commands">In chat: <code>!like {{id}}</code> · <code>!fav {{id}}</code> ·
            <code>!comment meme {{id}} TEXT</code></p>
        </article>
        <section class="comments">
          {{> comments}}
          {{#viewer}}
          <form method="post" action="/m/{{id}}/comment" class="comment-form">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <textarea name="text" maxlength="{{maxComment}}" required placeholder="Say something nice"></textarea>
            <button>Comment</button></form>
          {{/viewer}}
          {{^viewer}}<p><a href="/signin?next=/m/{{id}}">Sign in</a> to like and comment.</p>{{/viewer}}
        </section>
        """

    static let gallery = """
        <section class="profile">
          {{#avatar}}<img class="avatar" src="{{avatar}}" alt="{{whose}} picture" width="96" height="96">{{/avatar}}
          <div><h1>{{name}}</h1>
            <p class="bio">{{bio}}{{^bio}}<i>No bio yet.</i>{{/bio}}</p>
            {{#hasFields}}<p class="fields">{{#fields}}<span>{{label}}: {{value}}</span> {{/fields}}</p>{{/hasFields}}
            <p class="meta">joined {{joined}} · {{followers}} · {{following}} following ·
              {{memeCount}} · {{recipes}} · {{points}}</p>
            {{#viewer}}{{^isSelf}}<form method="post" action="/u/{{key}}/follow" class="follow">
              <input type="hidden" name="csrf" value="{{csrf}}">
              {{#follows}}<input type="hidden" name="undo" value="1"><button>Unfollow</button>{{/follows}}
              {{^follows}}<button>Follow</button>{{/follows}}</form>{{/isSelf}}
            {{#isSelf}}<p><a class="button" href="/make">Make a meme</a></p>{{/isSelf}}{{/viewer}}
            {{^viewer}}<p><a href="/signin?next=/u/{{key}}">Sign in</a> to follow {{name}}.</p>{{/viewer}}</div>
        </section>
        {{#open}}
        <h2>Memes</h2>
        <section class="gallery">
          {{#memes}}<a class="tile" href="/m/{{id}}"><img src="{{image}}" alt="{{caption}}"
            loading="lazy"></a>{{/memes}}
          {{^memes}}<p class="empty">{{name}} has no memes yet.</p>{{/memes}}
        </section>
        {{#hasUploads}}<h2>Pictures</h2>
        <section class="gallery uploads">
          {{#uploads}}<a class="tile" href="{{image}}"><img src="{{image}}" alt="a picture {{name}} uploaded"
            loading="lazy"></a>{{/uploads}}
        </section>{{/hasUploads}}
        {{> paging}}
        <h2>Recipes</h2>
        {{#recipeList}}\(RecipeTemplates.table){{/recipeList}}
        {{^recipeList}}<p class="empty">{{name}} has no recipes yet.</p>{{/recipeList}}
        <h2>Friends</h2>
        {{#hasFriends}}<ul class="people">{{#friends}}<li><a href="/u/{{key}}">{{name}}</a></li>{{/friends}}</ul>
        {{/hasFriends}}
        {{^hasFriends}}<p class="empty">No friends yet (friends follow each other).</p>{{/hasFriends}}
        {{/open}}
        {{^open}}<p class="empty">{{name}} shares memes with friends only (people who follow each other).</p>{{/open}}
        """

    static let hot = """
        <h1>Hot memes</h1>
        <p><a class="button" href="/make">Make a meme</a></p>
        <section class="gallery">
          {{#memes}}<a class="tile" href="/m/{{id}}" title="{{caption}} — {{author}} ♥ {{likes}} ★ {{favs}}">
            <img src="{{image}}" alt="{{caption}}" loading="lazy"></a>{{/memes}}
        </section>
        {{^memes}}<p class="empty">Nothing is trending yet — <a href="/make">make a meme</a>, or in chat:
          <code>!meme sunset top | bottom</code></p>{{/memes}}
        {{> paging}}
        """

    static let maker = """
        <h1>Make a meme</h1>
        {{#problem}}<p class="problem" role="alert">{{problem}}</p>{{/problem}}
        {{#source}}
        <section class="maker">
          <figure class="preview"><img id="preview" src="{{preview}}" alt="Preview of your meme"></figure>
          <form method="post" action="/make" class="maker-form" data-preview="preview">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="source" value="{{source}}">
            {{#fields}}<label>{{label}} <input name="text{{n}}" value="{{value}}" maxlength="{{maxCaption}}"
              autocomplete="off" enterkeyhint="done"></label>
            <details class="box-options"><summary>Place and style</summary>
              <div class="box-grid">
                <label>Left % <input type="number" name="x{{n}}" min="0" max="95" inputmode="numeric"></label>
                <label>Top % <input type="number" name="y{{n}}" min="0" max="95" inputmode="numeric"></label>
                <label>Width % <input type="number" name="w{{n}}" min="5" max="100" inputmode="numeric"></label>
                <label>Height % <input type="number" name="h{{n}}" min="5" max="100" inputmode="numeric"></label>
                <label>Font <select name="font{{n}}"><option value="">Default</option><option>sans</option>
                  <option>serif</option><option>mono</option></select></label>
                <label>Colour <input name="color{{n}}" placeholder="white" autocomplete="off"></label>
                <label>Outline <input name="outline{{n}}" placeholder="black, none" autocomplete="off"></label>
                <label>Align <select name="align{{n}}"><option value="">Centre</option><option>left</option>
                  <option>right</option></select></label>
              </div></details>
            {{/fields}}
            <p class="status" data-preview-status role="status"></p>
            <div class="row"><button>Post meme</button> <a href="/make">Pick another picture</a></div>
          </form>
        </section>
        {{/source}}
        <section class="picker">
          <h2>{{#source}}Or pick another template{{/source}}{{^source}}Pick a template{{/source}}</h2>
          <form method="get" action="/make" class="search" role="search">
            <input type="search" name="q" value="{{q}}" placeholder="Search: cat, brain, sunset…"
              aria-label="Search templates" data-filter="templates"> <button>Search</button></form>
          <div class="template-grid" id="templates">
            {{#templates}}<a class="template{{#selected}} selected{{/selected}}" href="/make?source={{name}}"
              data-keywords="{{keywords}}" title="{{summary}}"><img src="{{image}}" alt="" loading="lazy">
              <span>{{name}}</span></a>{{/templates}}
            {{#own}}<a class="template" href="/make?source={{name}}" data-keywords="{{name}}"><img src="{{image}}"
              alt="" loading="lazy"><span>{{name}}</span></a>{{/own}}
          </div>
          {{#noMatch}}<p class="empty">No template matches “{{q}}”. <a href="/make">Show them all</a></p>{{/noMatch}}
          <h2>Or use your own picture</h2>
          <form method="post" action="/pictures" enctype="multipart/form-data" class="upload" data-drop>
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="next" value="/make">
            <label class="dropzone">Drop a picture here, or take or choose one
              <input type="file" name="file" accept="image/*" required></label>
            <button>Upload</button>
            <small>PNG, JPEG, GIF or WebP, up to {{maxUpload}} MiB.</small>
          </form>
          {{#hasUploads}}<div class="template-grid">{{/hasUploads}}
            {{#uploads}}<a class="template" href="/make?picture={{id}}"><img src="{{image}}"
              alt="your picture {{id}}" loading="lazy"><span>{{id}}</span></a>{{/uploads}}
          {{#hasUploads}}</div>{{/hasUploads}}
        </section>
        """
}
