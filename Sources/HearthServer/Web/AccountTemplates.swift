/// The account pages' templates (`WebAccount`): sign up, the recovery codes shown once, forgot
/// password and settings. Every form posts and redirects; none needs a script.
enum AccountTemplates {
    static let all: [(String, String)] = [
        ("signup", signUp), ("welcome", welcome), ("recover", recover), ("settings", settings),
    ]

    static let signUp = """
        <h1>Sign up</h1>
        {{#problem}}<p class="problem" role="alert">{{problem}}</p>{{/problem}}
        <form method="post" action="/signup" class="signin">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label>Account name <input name="name" value="{{name}}" autocomplete="username" required
            maxlength="{{maxName}}" autocapitalize="none" spellcheck="false"></label>
          <label>Password <input name="password" type="password" autocomplete="new-password" required
            maxlength="{{maxSecret}}"></label>
          <label>Password again <input name="password2" type="password" autocomplete="new-password" required
            maxlength="{{maxSecret}}"></label>
          <label>Email <small>(optional)</small> <input name="email" type="email" value="{{email}}"
            autocomplete="email" maxlength="{{maxField}}"></label>
          <label>Phone <small>(optional)</small> <input name="phone" type="tel" value="{{phone}}" autocomplete="tel"
            maxlength="{{maxField}}"></label>
          <label>Invite code <small>(optional: a family's, to join it)</small> <input name="invite"
            value="{{invite}}" autocomplete="off" maxlength="{{maxField}}"></label>
          <button>Sign up</button>
        </form>
        <p>Already have an account? <a href="/signin">Sign in</a>. The same account works in chat:
          <code>!login NAME PASSWORD</code>.</p>
        """

    static let welcome = """
        <h1>Welcome, {{name}}!</h1>
        {{#shown}}
        <section class="codes">
          <h2>Save your recovery codes</h2>
          <p>If you forget your password, one of these codes lets you choose a new one
            (<a href="/recover">Forgot password</a>). Each works once. <strong>They are shown only now</strong>:
            write them down or keep them in a password manager.</p>
          <ol class="recovery">{{#codes}}<li><code>{{.}}</code></li>{{/codes}}</ol>
          <form method="get" action="/settings" class="saved">
            <label><input type="checkbox" name="saved" required> I have saved these codes</label>
            <button>Continue</button>
          </form>
        </section>
        {{/shown}}
        {{^shown}}
        <p>Your recovery codes were shown once, when you signed up. If you lost them and still know your
          password, nothing is lost: you can change the password in <a href="/settings">settings</a>.</p>
        {{/shown}}
        """

    static let recover = """
        <h1>Forgot your password?</h1>
        {{#problem}}<p class="problem" role="alert">{{problem}}</p>{{/problem}}
        <p>Use one of the recovery codes you were given when you signed up. It works once.</p>
        <form method="post" action="/recover" class="signin">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label>Account name <input name="name" value="{{name}}" autocomplete="username" required
            maxlength="{{maxName}}" autocapitalize="none" spellcheck="false"></label>
          <label>Recovery code <input name="code" autocomplete="off" required maxlength="{{maxField}}"
            autocapitalize="characters" spellcheck="false"></label>
          <label>New password <input name="password" type="password" autocomplete="new-password" required
            maxlength="{{maxSecret}}"></label>
          <label>New password again <input name="password2" type="password" autocomplete="new-password" required
            maxlength="{{maxSecret}}"></label>
          <button>Set the new password</button>
        </form>
        """

    static let settings = """
        <h1>Settings</h1>
        <section class="card">
          <h2>Profile picture</h2>
          <div class="avatar-row">
            {{#avatar}}<img class="avatar large" src="{{avatar}}" alt="Your profile picture" width="96"
              height="96">{{/avatar}}
            {{^avatar}}<span class="avatar large none" aria-hidden="true">{{name}}</span>{{/avatar}}
            <form method="post" action="/settings/avatar" enctype="multipart/form-data" class="avatar-form"
              data-crop>
              <input type="hidden" name="csrf" value="{{csrf}}">
              <label>A picture <input type="file" name="picture" accept="image/*" required></label>
              <label class="focus">Which square: <small>start</small>
                <input type="range" name="focus" min="0" max="100" value="50"> <small>end</small></label>
              <canvas class="crop-preview" width="96" height="96" hidden></canvas>
              <button>Use as my picture</button>
            </form>
          </div>
          {{#avatar}}<form method="post" action="/settings/avatar" enctype="multipart/form-data">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="remove" value="1">
            <button class="link">Remove the picture</button></form>{{/avatar}}
        </section>
        <section class="card">
          <h2>Preferences</h2>
          <form method="post" action="/settings" class="settings">
            <input type="hidden" name="csrf" value="{{csrf}}">
            {{#settings}}
            <label><span><b>{{key}}</b> — {{summary}}</span>
              {{#choice}}<select name="{{key}}">{{#options}}
                <option{{#selected}} selected{{/selected}}>{{option}}</option>{{/options}}</select>{{/choice}}
              {{^choice}}<input name="{{key}}" value="{{value}}" maxlength="{{maxField}}" autocapitalize="none"
                spellcheck="false">{{/choice}}
            </label>
            {{/settings}}
            <button>Save</button>
          </form>
        </section>
        {{#vapid}}<section class="card" id="push" data-vapid="{{vapid}}">
          <h2>Notifications on this device</h2>
          <p class="push-status">Notifications need this site's app or a browser that supports them.</p>
          <input type="hidden" name="csrf" value="{{csrf}}">
          <button type="button" data-push-toggle hidden>Turn on notifications here</button>
          <fieldset class="push-kinds" hidden><legend>Tell me about</legend>
            <label><input type="checkbox" name="kind" value="dm" checked> private messages while I am away</label>
            <label><input type="checkbox" name="kind" value="mention" checked> my name in a channel while away</label>
            <label><input type="checkbox" name="kind" value="cookie" checked> a new fortune cookie</label>
            <label><input type="checkbox" name="kind" value="family" checked> posts to my families</label>
          </fieldset>
          <script src="{{script.push}}" defer></script>
        </section>{{/vapid}}
        <section class="card">
          <h2>Password</h2>
          <form method="post" action="/settings/password" class="stack">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <input type="hidden" name="name" value="{{name}}" autocomplete="username">
            <label>Current password <input name="old" type="password" autocomplete="current-password" required
              maxlength="{{maxSecret}}"></label>
            <label>New password <input name="password" type="password" autocomplete="new-password" required
              maxlength="{{maxSecret}}"></label>
            <label>New password again <input name="password2" type="password" autocomplete="new-password" required
              maxlength="{{maxSecret}}"></label>
            <button>Change the password</button>
          </form>
        </section>
        <section class="card">
          <h2>Devices</h2>
          <p>Sign out on every device and connection (web, chat clients, resume tokens).</p>
          <form method="post" action="/signout/all"><input type="hidden" name="csrf" value="{{csrf}}">
            <button>Sign out everywhere</button></form>
        </section>
        <section class="card danger">
          <h2>Delete the account</h2>
          <p>This deletes {{name}} and everything that is only yours: memes, pictures, recipes, fortunes, posts.
            It cannot be undone.</p>
          <form method="post" action="/settings/delete" class="stack">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label>Type your name, {{name}}, to confirm <input name="confirm" required autocomplete="off"
              maxlength="{{maxName}}" autocapitalize="none" spellcheck="false"></label>
            <label>Password <input name="password" type="password" autocomplete="current-password" required
              maxlength="{{maxSecret}}"></label>
            <button class="danger">Delete my account</button>
          </form>
        </section>
        """
}
