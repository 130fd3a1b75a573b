/// The recipes app's page templates (Mustache, HTML-escaped by default). The site's layout
/// wraps them; `viewer` (the signed-in name) and `csrf` (every form's token) come from it.
enum RecipeTemplates {
    static let recipe = """
        <article class="recipe">
          {{#photo}}<figure><img src="{{photo}}" alt="{{title}}" width="600"></figure>{{/photo}}
          <h1>{{title}}</h1>
          <p class="meta">Recipe #{{id}} by <a href="/u/{{authorKey}}">{{author}}</a> ·
            <time datetime="{{created}}">{{ago}}</time></p>
          <div class="counts">
            <span>score {{score}}</span> <span>▲ {{ups}}</span> <span>▼ {{downs}}</span>
            <span>💬 {{commentsText}}</span>
          </div>
          {{#hasTags}}<p class="tags">{{#tags}}<a href="/recipes/search?q={{query}}">{{tag}}</a>
            {{/tags}}</p>{{/hasTags}}
          {{#source}}<p class="meta">Source: {{source}}</p>{{/source}}
          {{#viewer}}
          <div class="actions">
            <form method="post" action="/r/{{id}}/vote"><input type="hidden" name="csrf" value="{{csrf}}">
              <input type="hidden" name="vote" value="up"><button>▲ Vote up</button></form>
            <form method="post" action="/r/{{id}}/vote"><input type="hidden" name="csrf" value="{{csrf}}">
              <input type="hidden" name="vote" value="down"><button>▼ Vote down</button></form>
            <form method="post" action="/r/{{id}}/vote"><input type="hidden" name="csrf" value="{{csrf}}">
              <input type="hidden" name="vote" value="unvote"><button class="link">Take back my vote</button></form>
          </div>
          {{/viewer}}
          <section class="card"><h2>Ingredients</h2>
            <ul class="ingredients">{{#ingredients}}<li>{{.}}</li>{{/ingredients}}</ul></section>
          <section class="card"><h2>Steps</h2>
            <ol class="steps">{{#steps}}<li>{{.}}</li>{{/steps}}</ol></section>
          <p class="commands">In chat: <code>!recipe {{id}}</code> · <code>!up {{id}}</code> ·
            <code>!down {{id}}</code> · <code>!save {{id}}</code> · <code>!comment recipe {{id}} TEXT</code></p>
        </article>
        <section class="comments">
          {{> comments}}
          {{#viewer}}
          <form method="post" action="/r/{{id}}/comment" class="comment-form">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <textarea name="text" maxlength="{{maxComment}}" required
              placeholder="Cooked it? Say how it went"></textarea>
            <button>Comment</button></form>
          {{/viewer}}
          {{^viewer}}<p><a href="/signin?next=/r/{{id}}">Sign in</a> to vote and comment.</p>{{/viewer}}
        </section>
        """

    /// The search form (a GET: nothing changes, so no CSRF token).
    static let searchForm = """
        <form method="get" action="/recipes/search" class="search">
          <label>Search recipes <input type="search" name="q" value="{{q}}" maxlength="{{maxQuery}}"
            placeholder="tomato basil cuisine:italian"></label>
          <button>Search</button></form>
        """

    /// A list of recipes (`recipes`: id, title, author, authorKey, score, comments, tags, ago).
    static let table = """
        <table class="recipes">
          <tr><th>Recipe</th><th>By</th><th>Score</th><th>Comments</th><th>Tags</th></tr>
          {{#recipes}}
          <tr><td><a href="/r/{{id}}">{{title}}</a> <span class="ago">{{ago}}</span></td>
            <td><a href="/u/{{authorKey}}">{{author}}</a></td><td>{{score}}</td><td>{{comments}}</td>
            <td class="tags">{{#tags}}<a href="/recipes/search?q={{query}}">{{tag}}</a> {{/tags}}</td></tr>
          {{/recipes}}
        </table>
        """

    static let trending = """
        <h1>Trending recipes</h1>
        \(searchForm)
        {{#none}}<p class="empty">No recipes yet — write one in chat: <code>!recipe new</code></p>{{/none}}
        {{^none}}
        \(table)
        {{^recipes}}<p class="empty">There is nothing on this page.</p>{{/recipes}}
        {{> paging}}
        {{/none}}
        <p class="commands">In chat: <code>!recipes hot</code> · <code>!recipes new</code> ·
          <code>!recipes top</code> ·
          <code>!recipes foryou</code> · <code>!search WORDS</code></p>
        """

    static let search = """
        <h1>Search recipes</h1>
        \(searchForm)
        <p class="meta">Every word must match; <code>tom*</code> for prefixes, <code>"quoted phrases"</code>,
          <code>OR</code>, <code>NOT</code>, <code>cuisine:thai</code>, <code>diet:vegan</code>.</p>
        {{#problem}}<p class="problem" role="alert">{{problem}}</p>{{/problem}}
        {{#searched}}
        {{#found}}<p>Found {{total}}:</p>
        \(table)
        {{#paging}}<nav class="paging">
          {{#previous}}<a href="?q={{qURL}}&amp;page={{previous}}">← previous</a>{{/previous}}
          page {{page}} of {{pages}}
          {{#next}}<a href="?q={{qURL}}&amp;page={{next}}">next →</a>{{/next}}</nav>{{/paging}}
        {{/found}}
        {{^found}}<p class="empty">No recipe matches — try fewer words, or a prefix like tom*.</p>{{/found}}
        {{/searched}}
        """
}
