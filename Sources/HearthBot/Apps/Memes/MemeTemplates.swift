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
            <p class="meta">joined {{joined}} · {{followers}} · {{following}} following ·
              {{memeCount}} · {{recipes}} · {{points}}</p></div>
        </section>
        {{#open}}
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
        {{/open}}
        {{^open}}<p class="empty">{{name}} shares memes with friends only (people who follow each other).</p>{{/open}}
        """

    static let hot = """
        <h1>Hot memes</h1>
        <section class="gallery">
          {{#memes}}<a class="tile" href="/m/{{id}}" title="{{caption}} — {{author}} ♥ {{likes}} ★ {{favs}}">
            <img src="{{image}}" alt="{{caption}}" loading="lazy"></a>{{/memes}}
        </section>
        {{^memes}}<p class="empty">Nothing is trending yet — make a meme in chat:
          <code>!meme sunset top | bottom</code></p>{{/memes}}
        {{> paging}}
        """
}
