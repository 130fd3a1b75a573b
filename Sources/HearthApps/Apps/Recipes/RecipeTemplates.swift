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
            {{#marks}}
            <form method="post" action="/r/{{id}}/{{path}}"><input type="hidden" name="csrf" value="{{csrf}}">
              <input type="hidden" name="{{field}}" value="{{value}}">
              <button class="{{kind}}{{#on}} on{{/on}}" aria-pressed="{{pressed}}">{{label}}</button></form>
            {{/marks}}
            {{#mine}}<a class="button" href="/r/{{id}}/edit">✎ Edit</a>{{/mine}}
          </div>
          {{#voted}}<p class="meta">Press your vote again to take it back.</p>{{/voted}}
          {{/viewer}}
          <section class="card"><h2>Ingredients</h2>
            {{#servings}}<form method="get" action="/r/{{id}}" class="servings">
              <label>Servings <input type="number" name="serves" min="1" max="{{max}}" value="{{shown}}"
                inputmode="numeric"></label> <button>Scale</button> <span class="meta">{{heading}}</span></form>
            {{/servings}}
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

    /// A list of recipes as photo cards (`recipes`: id, title, photo, author, authorKey, score,
    /// comments, tags, ago).
    static let table = """
        <ul class="cards recipes">
          {{#recipes}}
          <li class="recipe-card"><a class="photo" href="/r/{{id}}">{{#photo}}<img src="{{photo}}" alt=""
            loading="lazy" width="320" height="240">{{/photo}}{{^photo}}<span class="noimage" aria-hidden="true"
            >🍲</span>{{/photo}}</a>
            <a class="title" href="/r/{{id}}">{{title}}</a>
            <span class="meta">by <a href="/u/{{authorKey}}">{{author}}</a> · score {{score}} ·
              💬 {{comments}} · {{ago}}</span>
            <span class="tags">{{#tags}}<a href="/recipes/search?q={{query}}">{{tag}}</a> {{/tags}}</span></li>
          {{/recipes}}
        </ul>
        """

    /// Where a signed-in person writes or finds their own.
    static let mine = """
        {{#viewer}}<p class="actions"><a class="button" href="/recipes/new">✎ Write a recipe</a>
          <a href="/recipes/saved">★ Saved recipes</a></p>{{/viewer}}
        """

    static let trending = """
        <h1>Trending recipes</h1>
        \(searchForm)
        \(mine)
        {{#none}}<p class="empty">No recipes yet — write one: <a href="/recipes/new">on the web</a>
          or in chat, <code>!recipe new</code></p>{{/none}}
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

    static let saved = """
        <h1>Saved recipes</h1>
        <p class="meta">{{total}} saved · <a href="/recipes">trending</a> · in chat: <code>!saved</code></p>
        \(table)
        {{^recipes}}<p class="empty">Nothing saved yet — press ☆ Save on a recipe you like.</p>{{/recipes}}
        {{> paging}}
        """

    /// Writing or changing a recipe: the photo first (its own form: it goes to the server's
    /// picture upload and comes back here with `?picture=ID`), then the recipe's form.
    static let editor = """
        <section class="editor">
          <h1>{{heading}}</h1>
          {{#problem}}<p class="problem" role="alert">{{problem}}</p>{{/problem}}
          {{#importable}}<form method="post" action="/recipes/import" class="card import-form">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label>Import from a recipe page <input name="url" type="url" required
              placeholder="https://example.com/tomato-soup"></label>
            <button>Import</button></form>{{/importable}}
          {{#importedFrom}}<p class="meta">Imported from {{importedFrom}} — check it, then publish.</p>{{/importedFrom}}
          <form method="post" action="/pictures" enctype="multipart/form-data" class="card photo-form">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="next" value="{{action}}">
            {{#photo}}<img src="{{photo}}" alt="The recipe's photo" width="320">{{/photo}}
            <label>{{#photo}}Another photo{{/photo}}{{^photo}}A photo of the dish (optional){{/photo}}
              <input type="file" name="file" accept="image/png,image/jpeg,image/gif,image/webp" required></label>
            <button>Upload the photo</button></form>
          <form method="post" action="{{action}}" class="card recipe-form">
            <input type="hidden" name="csrf" value="{{csrf}}">
            {{#importedFrom}}<input type="hidden" name="imported" value="1">{{/importedFrom}}
            {{#photoID}}<input type="hidden" name="photo" value="{{photoID}}">
            <label class="check"><input type="checkbox" name="nophoto" value="1"> No photo</label>{{/photoID}}
            <label>Title <input name="title" value="{{title}}" maxlength="{{maxTitle}}" required
              placeholder="Tomato basil soup"></label>
            <label>Ingredients, one per line (up to {{maxIngredients}})
              <textarea name="ingredients" rows="8" required placeholder="4 ripe tomatoes&#10;1 onion, chopped"
              >{{ingredients}}</textarea></label>
            <label>Steps, one per line (up to {{maxSteps}})
              <textarea name="steps" rows="8" required
              placeholder="Soften the onion in olive oil.&#10;Add the tomatoes; simmer 20 minutes.">{{steps}}</textarea>
            </label>
            <label>Tags: cuisines and diets (up to {{maxTags}} words)
              <input name="tags" value="{{tags}}" placeholder="italian vegan"></label>
            <p class="meta">Each line may have {{maxLine}} characters.</p>
            <button>{{button}}</button> <a href="{{back}}">Cancel</a>
          </form>
          <p class="commands">In chat: <code>!recipe new</code>, then the lines ·
            <code>!recipe edit ID FIELD VALUE</code></p>
        </section>
        """
}
