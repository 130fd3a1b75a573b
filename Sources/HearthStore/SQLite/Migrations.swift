import GRDB

/// Versioned schema. Never edit a shipped migration: add a new one.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1-accounts") { db in
            try db.create(table: "account") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("nameKey", .text).notNull().unique()
                t.column("passwordHash", .text).notNull()
                t.column("email", .text)
                t.column("phone", .text)
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "resumeToken") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("account", onDelete: .cascade).notNull()
                t.column("tokenHash", .text).notNull().unique()
                t.column("createdAt", .datetime).notNull()
                t.column("expiresAt", .datetime).notNull()
            }
            try db.create(table: "recoveryCode") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("account", onDelete: .cascade).notNull()
                t.column("codeHash", .text).notNull()
                t.column("usedAt", .datetime)
                t.uniqueKey(["accountId", "codeHash"])
            }
        }
        m.registerMigration("v2-social") { db in
            try db.alter(table: "account") { t in t.add(column: "bio", .text).notNull().defaults(to: "") }
            // Who follows whom; both directions are indexed (followers and following lists).
            try db.create(table: "follow", options: [.withoutRowID]) { t in
                t.column("followerId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("followeeId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("createdAt", .datetime).notNull()
                t.primaryKey(["followerId", "followeeId"])
            }
            try db.create(index: "follow_followee", on: "follow", columns: ["followeeId", "followerId"])
            try db.create(table: "block", options: [.withoutRowID]) { t in
                t.column("blockerId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("blockedId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("createdAt", .datetime).notNull()
                t.primaryKey(["blockerId", "blockedId"])
            }
            try db.create(index: "block_blocked", on: "block", columns: ["blockedId", "blockerId"])
            try db.create(table: "setting", options: [.withoutRowID]) { t in
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("key", .text).notNull()
                t.column("value", .text).notNull()
                t.primaryKey(["accountId", "key"])
            }
            // What people did, for !feed: each app adds its own kinds.
            try db.create(table: "activity") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("kind", .text).notNull()
                t.column("subjectId", .integer)
                t.column("text", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(index: "activity_account", on: "activity", columns: ["accountId", "id"])
        }
        m.registerMigration("v3-offline-messages") { db in
            // Private messages to registered users who were offline, until they next log in.
            try db.create(table: "offlineMessage") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("recipientId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("senderId", .integer).references("account", onDelete: .setNull)
                t.column("senderName", .text).notNull()
                t.column("text", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(index: "offlineMessage_recipient", on: "offlineMessage", columns: ["recipientId", "id"])
        }
        m.registerMigration("v4-registered-channels") { db in
            // Channels with an owner: topic and modes survive restarts, the owner gets ops back.
            try db.create(table: "registeredChannel") { t in
                t.column("nameKey", .text).primaryKey()
                t.column("name", .text).notNull()
                t.column("ownerId", .integer).notNull().indexed().references("account", onDelete: .cascade)
                t.column("topic", .text).notNull().defaults(to: "")
                t.column("topicSetBy", .text).notNull().defaults(to: "")
                t.column("topicSetAt", .datetime)
                t.column("flags", .text).notNull().defaults(to: "nt")
                t.column("channelKey", .text)
                t.column("userLimit", .integer)
                t.column("createdAt", .datetime).notNull()
            }
        }
        m.registerMigration("v5-history") { db in
            // Channel messages and private messages between accounts, for !history and join backlog.
            try db.create(table: "history") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("target", .text).notNull()
                t.column("msgid", .text).notNull()
                t.column("source", .text).notNull()
                // The sender's account, so only they (or a channel operator) can redact it.
                t.column("accountId", .integer).references("account", onDelete: .setNull)
                t.column("command", .text).notNull()
                t.column("text", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(index: "history_target", on: "history", columns: ["target", "id"])
            try db.create(index: "history_time", on: "history", columns: ["createdAt"])
        }
        m.registerMigration("v6-read-markers") { db in
            // How far each account has read each channel or conversation (synced across devices).
            try db.create(table: "readMarker", options: [.withoutRowID]) { t in
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("target", .text).notNull()
                t.column("readAt", .datetime).notNull()
                t.primaryKey(["accountId", "target"])
            }
        }
        m.registerMigration("v7-media") { db in
            // Pictures: uploads, rendered memes, grids. The file is media/<id>.<format>.
            try db.create(table: "image") { t in
                t.column("id", .text).primaryKey()  // 128 random bits, hex
                t.column("ownerId", .integer).indexed().references("account", onDelete: .cascade)
                t.column("kind", .text).notNull()  // upload, meme, grid, template, map
                t.column("format", .text).notNull()
                t.column("width", .integer).notNull()
                t.column("height", .integer).notNull()
                t.column("bytes", .integer).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            // One-time upload links: only a hash of the token is kept.
            try db.create(table: "uploadTicket") { t in
                t.column("tokenHash", .text).primaryKey()
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("expiresAt", .datetime).notNull()
            }
            // Users' own templates (built-in ones live in code).
            try db.create(table: "template") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("ownerId", .integer).references("account", onDelete: .cascade)  // NULL: global
                t.column("name", .text).notNull()
                t.column("nameKey", .text).notNull()
                t.column("imageId", .text).notNull().references("image", onDelete: .cascade)
                t.column("boxes", .text).notNull()  // JSON [CaptionBox]
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(
                index: "template_owner_name", on: "template", columns: ["ownerId", "nameKey"], options: .unique)
            try db.create(table: "meme") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("imageId", .text).notNull().references("image")
                t.column("source", .text).notNull()  // template name or image id it was made from
                t.column("caption", .text).notNull()  // the parts joined by " | "
                t.column("likes", .integer).notNull().defaults(to: 0)
                t.column("favs", .integer).notNull().defaults(to: 0)
                t.column("comments", .integer).notNull().defaults(to: 0)
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(index: "meme_account", on: "meme", columns: ["accountId", "id"])
            try db.create(table: "memeLike", options: [.withoutRowID]) { t in
                t.column("memeId", .integer).notNull().references("meme", onDelete: .cascade)
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("createdAt", .datetime).notNull()
                t.primaryKey(["memeId", "accountId"])
            }
            try db.create(table: "memeFav", options: [.withoutRowID]) { t in
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("memeId", .integer).notNull().references("meme", onDelete: .cascade)
                t.column("createdAt", .datetime).notNull()
                t.primaryKey(["accountId", "memeId"])
            }
            // Rendered memes by what they were made from, so a repeat is served from the cache.
            try db.create(table: "renderCache", options: [.withoutRowID]) { t in
                t.column("renderKey", .text).primaryKey()
                t.column("imageId", .text).notNull().references("image", onDelete: .cascade)
            }
            // One comment system for every kind of thing (memes, recipes, family posts).
            try db.create(table: "comment") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("kind", .text).notNull()
                t.column("targetId", .integer).notNull()
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("text", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(index: "comment_target", on: "comment", columns: ["kind", "targetId", "id"])
            try db.alter(table: "account") { t in t.add(column: "avatarImageId", .text) }
        }
        m.registerMigration("v8-fortunes") { db in
            try db.create(table: "fortune") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("day", .text).notNull()  // local date in the account's time zone
                t.column("sayingKey", .text).notNull()
                t.column("round", .integer).notNull()
                t.column("text", .text).notNull()
                t.column("numbers", .text).notNull()
                t.column("lat", .double)
                t.column("lon", .double)
                t.column("place", .text)
                t.column("points", .integer).notNull()
                t.column("openedAt", .datetime).notNull()
            }
            try db.create(index: "fortune_account_day", on: "fortune", columns: ["accountId", "day"], options: .unique)
            // Points: one row per reason per day (a cookie, a first login), so none is given twice.
            try db.create(table: "pointsEvent") { t in
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("kind", .text).notNull()
                t.column("day", .text).notNull()
                t.column("points", .integer).notNull()
                t.column("createdAt", .datetime).notNull()
                t.primaryKey(["accountId", "kind", "day"])
            }
            // Where each account last said it was (fortunes, !loc), for maps and !where.
            try db.create(table: "lastLocation") { t in
                t.column("accountId", .integer).primaryKey().references("account", onDelete: .cascade)
                t.column("lat", .double).notNull()
                t.column("lon", .double).notNull()
                t.column("label", .text)
                t.column("at", .datetime).notNull()
            }
        }
        m.registerMigration("v9-recipes") { db in
            try db.create(table: "recipe") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("accountId", .integer).notNull().indexed().references("account", onDelete: .cascade)
                t.column("title", .text).notNull()
                t.column("ingredients", .text).notNull()
                t.column("steps", .text).notNull()
                t.column("photoImageId", .text)
                t.column("tags", .text).notNull().defaults(to: "")
                t.column("source", .text)
                t.column("ups", .integer).notNull().defaults(to: 0)
                t.column("downs", .integer).notNull().defaults(to: 0)
                t.column("comments", .integer).notNull().defaults(to: 0)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
            }
            // Full-text index kept in step with `recipe` by triggers (GRDB's synchronize).
            try db.create(virtualTable: "recipeSearch", using: FTS5()) { t in
                t.synchronize(withTable: "recipe")
                t.tokenizer = .unicode61()
                t.column("title")
                t.column("tags")
                t.column("ingredients")
                t.column("steps")
            }
            try db.create(table: "recipeDraft") { t in
                t.column("accountId", .integer).primaryKey().references("account", onDelete: .cascade)
                t.column("stage", .text).notNull()
                t.column("title", .text).notNull()
                t.column("ingredients", .text).notNull()
                t.column("steps", .text).notNull()
                t.column("photoImageId", .text)
                t.column("tags", .text).notNull()
                t.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "recipeVote", options: [.withoutRowID]) { t in
                t.column("recipeId", .integer).notNull().references("recipe", onDelete: .cascade)
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("value", .integer).notNull()
                t.primaryKey(["recipeId", "accountId"])
            }
            try db.create(table: "recipeSave", options: [.withoutRowID]) { t in
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("recipeId", .integer).notNull().references("recipe", onDelete: .cascade)
                t.column("createdAt", .datetime).notNull()
                t.primaryKey(["accountId", "recipeId"])
            }
        }
        m.registerMigration("v10-families") { db in
            try db.create(table: "family") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("founderId", .integer).notNull().indexed().references("account", onDelete: .cascade)
                t.column("parentFamilyId", .integer).references("family", onDelete: .setNull)
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "familyMember", options: [.withoutRowID]) { t in
                t.column("familyId", .integer).notNull().references("family", onDelete: .cascade)
                t.column("accountId", .integer).notNull().indexed().references("account", onDelete: .cascade)
                t.column("role", .text).notNull()
                t.column("joinedAt", .datetime).notNull()
                t.primaryKey(["familyId", "accountId"])
            }
            try db.create(table: "familyLink", options: [.withoutRowID]) { t in
                t.column("familyId", .integer).notNull().references("family", onDelete: .cascade)
                t.column("fromId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("toId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("kind", .text).notNull()
                t.primaryKey(["familyId", "fromId", "toId", "kind"])
            }
            // Invite codes are stored only as hashes; each works once and expires.
            try db.create(table: "familyInvite") { t in
                t.column("codeHash", .text).primaryKey()
                t.column("familyId", .integer).notNull().references("family", onDelete: .cascade)
                t.column("inviterId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("relation", .text)
                t.column("hint", .text).notNull()
                t.column("expiresAt", .datetime).notNull()
            }
            try db.create(table: "familyPost") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("familyId", .integer).notNull().references("family", onDelete: .cascade)
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.column("kind", .text).notNull()
                t.column("text", .text).notNull()
                t.column("imageId", .text)
                t.column("eventDate", .text)
                t.column("likes", .integer).notNull().defaults(to: 0)
                t.column("comments", .integer).notNull().defaults(to: 0)
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(index: "familyPost_family", on: "familyPost", columns: ["familyId", "id"])
            try db.create(table: "postLike", options: [.withoutRowID]) { t in
                t.column("postId", .integer).notNull().references("familyPost", onDelete: .cascade)
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.primaryKey(["postId", "accountId"])
            }
        }
        m.registerMigration("v11-history-access") { db in
            // Who was in which incarnation of an unregistered channel ("#room 9f2c…"): only
            // they may read its history once the channel was emptied and made again.
            try db.create(table: "historyAccess", options: [.withoutRowID]) { t in
                t.column("target", .text).notNull()
                t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
                t.primaryKey(["accountId", "target"])
            }
            try db.create(index: "historyAccess_target", on: "historyAccess", columns: ["target"])
        }
        m.registerMigration("v12-invites-without-hints") { db in
            // Invite codes keep no clear part (the hint shrank a guess to 2^39); they are
            // told apart by their row number. Codes are now keyed hashes ("k1:…").
            try db.alter(table: "familyInvite") { t in t.drop(column: "hint") }
        }
        m.registerMigration("v13-scram") { db in
            // SCRAM-SHA-256 keys (base64), written whenever the password is known; never the password.
            try db.create(table: "scramCredential") { t in
                t.primaryKey("accountId", .integer).references("account", onDelete: .cascade)
                t.column("salt", .text).notNull()
                t.column("iterations", .integer).notNull()
                t.column("storedKey", .text).notNull()
                t.column("serverKey", .text).notNull()
            }
        }
        m.registerMigration("v14-family-outlives-founder") { db in
            // Deleting a founder's account deleted the family with everyone's posts in it
            // (ON DELETE CASCADE). The founder's role now passes on first (`departFamilies`), and
            // the key refuses the delete if it did not. SQLite changes a key only by rebuilding
            // the table; GRDB turns foreign keys off for the migration, so nothing cascades here.
            let sequence =
                try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'family'") ?? 0
            try db.execute(
                sql: """
                    CREATE TABLE family_new (
                      id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,
                      founderId INTEGER NOT NULL REFERENCES account(id),
                      parentFamilyId INTEGER REFERENCES family(id) ON DELETE SET NULL,
                      createdAt DATETIME NOT NULL);
                    INSERT INTO family_new (id, name, founderId, parentFamilyId, createdAt)
                      SELECT id, name, founderId, parentFamilyId, createdAt FROM family;
                    DROP TABLE family;
                    ALTER TABLE family_new RENAME TO family;
                    CREATE INDEX family_on_founderId ON family(founderId);
                    """)
            // A removed family's number (its channel #family-N) is never given out again.
            try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name IN ('family', 'family_new')")
            try db.execute(
                sql: """
                    INSERT INTO sqlite_sequence (name, seq)
                    VALUES ('family', MAX(?, (SELECT COALESCE(MAX(id), 0) FROM family)))
                    """, arguments: [sequence])
        }
        m.registerMigration("v15-local-day-instants") { db in
            // Days given once keep their instants, older ones in each account's zone (see there).
            try LocalDayMigration.run(db)
        }
        m.registerMigration("v16-former-names") { db in
            // Names accounts had before `!rename`: old links and `!profile OLD` lead to the
            // account until someone takes the name (registering or renaming deletes the row).
            try db.create(table: "formerName") { t in
                t.column("nameKey", .text).primaryKey()
                t.column("accountId", .integer).notNull().indexed().references("account", onDelete: .cascade)
            }
        }
        m.registerMigration("v17-registration-invites") { db in
            // Operators' invites (`hearth invite`): N registrations past the per-address limit.
            try db.create(table: "registrationInvite") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("codeHash", .text).notNull().unique()
                t.column("usesLeft", .integer).notNull()
                t.column("expiresAt", .datetime).notNull()
                t.column("createdAt", .datetime).notNull()
            }
        }
        m.registerMigration("v19-history-search") { db in
            // Full-text search of chat history (`searchHistory`): an FTS5 index over the PRIVMSG and
            // NOTICE lines, each with its scope — "c" and its target in hex, "u<id>" per account of a
            // conversation — so a search is limited to what its reader may read inside the index.
            // Triggers read the one view, so the scope is written once; a deleted (redacted) line
            // leaves the index with its row. Existing history is indexed here ('rebuild').
            try db.execute(
                sql: """
                    CREATE VIEW historySearchSource AS SELECT id, text,
                      'c' || hex(target) || CASE WHEN target LIKE 'pm:%'
                        THEN ' u' || replace(substr(target, 4), ':', ' u') ELSE '' END AS scope
                    FROM history WHERE command IN ('PRIVMSG', 'NOTICE');
                    CREATE VIRTUAL TABLE historySearch USING fts5(
                      text, scope, content = 'historySearchSource', content_rowid = 'id', tokenize = 'unicode61');
                    CREATE TRIGGER historySearch_insert AFTER INSERT ON history BEGIN
                      INSERT INTO historySearch (rowid, text, scope)
                        SELECT id, text, scope FROM historySearchSource WHERE id = new.id;
                    END;
                    CREATE TRIGGER historySearch_delete BEFORE DELETE ON history BEGIN
                      INSERT INTO historySearch (historySearch, rowid, text, scope)
                        SELECT 'delete', id, text, scope FROM historySearchSource WHERE id = old.id;
                    END;
                    CREATE TRIGGER historySearch_unindex BEFORE UPDATE OF target, text, command ON history BEGIN
                      INSERT INTO historySearch (historySearch, rowid, text, scope)
                        SELECT 'delete', id, text, scope FROM historySearchSource WHERE id = old.id;
                    END;
                    CREATE TRIGGER historySearch_reindex AFTER UPDATE OF target, text, command ON history BEGIN
                      INSERT INTO historySearch (rowid, text, scope)
                        SELECT id, text, scope FROM historySearchSource WHERE id = new.id;
                    END;
                    INSERT INTO historySearch (historySearch) VALUES ('rebuild');
                    """)
        }
        m.registerMigration("v21-push-subscriptions") { db in
            // Web Push subscriptions, one per device (endpoint), for the site and draft/webpush.
            try db.execute(
                sql: """
                    CREATE TABLE pushSubscription (
                      endpoint TEXT PRIMARY KEY, accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                      p256dh TEXT NOT NULL, auth TEXT NOT NULL, source TEXT NOT NULL, kinds TEXT NOT NULL,
                      createdAt DATETIME NOT NULL, expiresAt DATETIME NOT NULL);
                    CREATE INDEX pushSubscription_on_accountId ON pushSubscription(accountId)
                    """)
        }
        m.registerMigration("v22-profile-fields") { db in
            // Profile fields set from IRC clients (draft/metadata-2: display-name, pronouns, …).
            try db.execute(
                sql: """
                    CREATE TABLE profileField (
                      accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE, key TEXT NOT NULL,
                      value TEXT NOT NULL, PRIMARY KEY (accountId, key))
                    """)
        }
        m.registerMigration("v23-history-tags") { db in
            // Client-only tags kept with their message (+draft/react, +draft/reply), and the
            // message a reaction, reply or edit acts on, so a redaction takes its reactions too.
            try db.alter(table: "history") { t in
                t.add(column: "tags", .text).notNull().defaults(to: "")
                t.add(column: "refMsgid", .text)
            }
            try db.execute(sql: "CREATE INDEX history_ref ON history(refMsgid) WHERE refMsgid IS NOT NULL")
        }
        m.registerMigration("v24-recipe-search-stems-and-accents") { db in
            // Recipe search finds "noodles" for "noodle" and "crème" for "creme": the index is
            // rebuilt with the porter stemmer over unicode61 that folds accents.
            try db.dropFTS5SynchronizationTriggers(forTable: "recipeSearch")
            try db.drop(table: "recipeSearch")
            try db.create(virtualTable: "recipeSearch", using: FTS5()) { t in
                t.synchronize(withTable: "recipe")
                t.tokenizer = .porter(wrapping: .unicode61(diacritics: .remove))
                t.column("title")
                t.column("tags")
                t.column("ingredients")
                t.column("steps")
            }
        }
        m.registerMigration("v27-client-certificates") { db in
            // SHA-256 fingerprints of TLS client certificates an account logs in with (SASL EXTERNAL).
            try db.execute(
                sql: """
                    CREATE TABLE clientCertificate (
                      fingerprint TEXT PRIMARY KEY, accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                      createdAt DATETIME NOT NULL);
                    CREATE INDEX clientCertificate_on_accountId ON clientCertificate(accountId)
                    """)
        }
        m.registerMigration("v28-history-search-prefix-index") { db in
            // Chat search's `abc*` merged the lines of every word it starts before finding the newest
            // (55 ms p99 over a million lines): FTS5 keeps 3-letter prefixes as terms of their own now
            // (ChatSearchQuery.minPrefixLetters), read newest first like a word. v19's triggers name the
            // table, so they write to the new one; 'rebuild' indexes the history there is.
            try db.execute(
                sql: """
                    DROP TABLE historySearch;
                    CREATE VIRTUAL TABLE historySearch USING fts5(
                      text, scope, content = 'historySearchSource', content_rowid = 'id', tokenize = 'unicode61',
                      prefix = '3');
                    INSERT INTO historySearch (historySearch) VALUES ('rebuild');
                    """)
        }
        m.registerMigration("v29-family-people-who-are-not-users") { db in
            // People in a family's tree who are not users (ancestors, the dead, young children):
            // links name them as minus their number, so a link's ends are no longer all accounts
            // (their rows are rewritten when a member leaves the tree, `detach`). Partners keep
            // their marriage's date and place. SQLite changes a key only by rebuilding the table.
            try db.execute(
                sql: """
                    CREATE TABLE familyLink_new (
                      familyId INTEGER NOT NULL REFERENCES family(id) ON DELETE CASCADE,
                      fromId INTEGER NOT NULL, toId INTEGER NOT NULL, kind TEXT NOT NULL,
                      eventDate TEXT, eventPlace TEXT,
                      PRIMARY KEY (familyId, fromId, toId, kind)) WITHOUT ROWID;
                    INSERT INTO familyLink_new (familyId, fromId, toId, kind)
                      SELECT familyId, fromId, toId, kind FROM familyLink;
                    DROP TABLE familyLink;
                    ALTER TABLE familyLink_new RENAME TO familyLink;
                    CREATE TABLE familyPerson (
                      id INTEGER PRIMARY KEY AUTOINCREMENT,
                      familyId INTEGER NOT NULL REFERENCES family(id) ON DELETE CASCADE,
                      name TEXT NOT NULL, sex TEXT, born TEXT, bornPlace TEXT, died TEXT, diedPlace TEXT,
                      accountId INTEGER REFERENCES account(id) ON DELETE SET NULL,
                      claimantId INTEGER REFERENCES account(id) ON DELETE SET NULL,
                      addedBy INTEGER REFERENCES account(id) ON DELETE SET NULL,
                      createdAt DATETIME NOT NULL);
                    CREATE INDEX familyPerson_family ON familyPerson(familyId);
                    CREATE UNIQUE INDEX familyPerson_account ON familyPerson(familyId, accountId)
                      WHERE accountId IS NOT NULL;
                    """)
        }
        m.registerMigration("v30-server-bans-and-channel-lists") { db in
            // Operators' server bans (UBAN), and what registered channels keep across restarts:
            // their ban, exception and invite-exception masks and who gets op or voice on join.
            try db.execute(
                sql: """
                    CREATE TABLE serverBan (
                      target TEXT PRIMARY KEY, kind TEXT NOT NULL, reason TEXT NOT NULL, setBy TEXT NOT NULL,
                      createdAt DATETIME NOT NULL, expiresAt DATETIME);
                    CREATE TABLE channelListEntry (
                      nameKey TEXT NOT NULL REFERENCES registeredChannel(nameKey) ON DELETE CASCADE,
                      mode TEXT NOT NULL, mask TEXT NOT NULL, setBy TEXT NOT NULL, setAt DATETIME NOT NULL,
                      byOper BOOLEAN NOT NULL DEFAULT 0, PRIMARY KEY (nameKey, mode, mask));
                    CREATE TABLE channelAccess (
                      nameKey TEXT NOT NULL REFERENCES registeredChannel(nameKey) ON DELETE CASCADE,
                      accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE, level TEXT NOT NULL,
                      PRIMARY KEY (nameKey, accountId))
                    """)
        }
        m.registerMigration("v31-chat-tickets") { db in
            // The web chat's one-time sign-in tickets (by hash), kept where every process reads them.
            try db.execute(
                sql: """
                    CREATE TABLE chatTicket (
                      hash TEXT PRIMARY KEY, accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                      tokenHash TEXT NOT NULL, expiresAt DATETIME NOT NULL);
                    CREATE INDEX chatTicket_on_expiresAt ON chatTicket(expiresAt)
                    """)
        }
        m.registerMigration("v32-always-on-presence") { db in
            // Always-on accounts kept present while none of their devices is connected, restored
            // at start (where each device got to is a read marker).
            try db.execute(
                sql: """
                    CREATE TABLE alwaysOnPresence (
                      accountId INTEGER PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
                      nick TEXT NOT NULL, userName TEXT NOT NULL, host TEXT NOT NULL, realname TEXT NOT NULL,
                      channels TEXT NOT NULL, since DATETIME NOT NULL)
                    """)
        }
        m.registerMigration("v33-user-sayings-and-imported-draft-source") { db in
            // Sayings users write for their friends' cookies, some proposed to (and approved for)
            // the public pool; and the page an imported recipe draft came from.
            try db.execute(
                sql: """
                    CREATE TABLE saying (
                      id INTEGER PRIMARY KEY AUTOINCREMENT,
                      accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                      text TEXT NOT NULL, status TEXT NOT NULL, createdAt DATETIME NOT NULL,
                      decidedAt DATETIME, decidedBy INTEGER REFERENCES account(id) ON DELETE SET NULL);
                    CREATE INDEX saying_on_accountId ON saying(accountId, id);
                    CREATE INDEX saying_on_status ON saying(status, id);
                    ALTER TABLE recipeDraft ADD COLUMN source TEXT
                    """)
        }
        m.registerMigration("v34-template-pack-details-and-unique-global-names") { db in
            // What an imported template pack says of each template; and one global template per
            // name (NULL owners never clashed in template_owner_name, so a second one could slip in:
            // the later copies were never the one found by name, and go).
            try db.execute(
                sql: """
                    ALTER TABLE template ADD COLUMN title TEXT;
                    ALTER TABLE template ADD COLUMN keywords TEXT NOT NULL DEFAULT '[]';
                    ALTER TABLE template ADD COLUMN source TEXT;
                    ALTER TABLE template ADD COLUMN example TEXT NOT NULL DEFAULT '[]';
                    DELETE FROM template WHERE ownerId IS NULL
                      AND id NOT IN (SELECT MIN(id) FROM template WHERE ownerId IS NULL GROUP BY nameKey);
                    CREATE UNIQUE INDEX template_global_name ON template(nameKey) WHERE ownerId IS NULL
                    """)
        }
        m.registerMigration("v36-recipe-servings") { db in
            // How many a recipe (and a draft) feeds, so its amounts can be scaled for more or fewer.
            try db.execute(
                sql: """
                    ALTER TABLE recipe ADD COLUMN servings INTEGER;
                    ALTER TABLE recipeDraft ADD COLUMN servings INTEGER
                    """)
        }
        m.registerMigration("v37-meal-plan-and-shopping-list") { db in
            // A family's (or a person's) week of planned recipes and the shopping list built from it,
            // filed under the household's key; a family, account or recipe that goes takes its rows.
            try db.execute(
                sql: """
                    CREATE TABLE mealPlan (
                      owner TEXT NOT NULL, familyId INTEGER REFERENCES family(id) ON DELETE CASCADE,
                      accountId INTEGER REFERENCES account(id) ON DELETE CASCADE, day INTEGER NOT NULL,
                      recipeId INTEGER NOT NULL REFERENCES recipe(id) ON DELETE CASCADE,
                      PRIMARY KEY (owner, day, recipeId));
                    CREATE INDEX mealPlan_recipe ON mealPlan(recipeId);
                    CREATE TABLE shopItem (
                      id INTEGER PRIMARY KEY AUTOINCREMENT, owner TEXT NOT NULL,
                      familyId INTEGER REFERENCES family(id) ON DELETE CASCADE,
                      accountId INTEGER REFERENCES account(id) ON DELETE CASCADE,
                      planKey TEXT, text TEXT NOT NULL, ticked BOOLEAN NOT NULL DEFAULT 0, createdAt DATETIME NOT NULL);
                    CREATE INDEX shopItem_owner ON shopItem(owner, id)
                    """)
        }
        m.registerMigration("v38-family-announcements") { db in
            // The days whose birthdays and anniversaries a family was told of: once per day,
            // whichever node or restart gets there first.
            try db.execute(
                sql: """
                    CREATE TABLE familyAnnouncement (
                      familyId INTEGER NOT NULL REFERENCES family(id) ON DELETE CASCADE,
                      day TEXT NOT NULL, announcedAt DATETIME NOT NULL, PRIMARY KEY (familyId, day))
                    """)
        }
        m.registerMigration("v39-shop-item-numbers-and-tickers") { db in
            // Each list numbers its own lines 1, 2, 3… (`shopList.lastNumber`, never reused while
            // the list has lines), and a tick remembers who ticked.
            try db.execute(
                sql: """
                    ALTER TABLE shopItem ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE shopItem ADD COLUMN tickedBy TEXT;
                    UPDATE shopItem SET number =
                      (SELECT COUNT(*) FROM shopItem s WHERE s.owner = shopItem.owner AND s.id <= shopItem.id);
                    CREATE TABLE shopList (
                      owner TEXT PRIMARY KEY, familyId INTEGER REFERENCES family(id) ON DELETE CASCADE,
                      accountId INTEGER REFERENCES account(id) ON DELETE CASCADE, lastNumber INTEGER NOT NULL);
                    INSERT INTO shopList (owner, familyId, accountId, lastNumber)
                      SELECT owner, MAX(familyId), MAX(accountId), MAX(number) FROM shopItem GROUP BY owner
                    """)
        }
        m.registerMigration("v40-history-search-indexed-per-batch") { db in
            // `appendHistory` indexes a batch of lines for search in one statement after writing them:
            // FTS5 writes what it has collected as a segment of its own at every statement savepoint,
            // so a trigger per row made a segment per line (5 times the CPU of the whole write).
            // Every other change to history (REDACT, a rename, retention) keeps its triggers.
            try db.execute(sql: "DROP TRIGGER historySearch_insert")
        }
        return m
    }
}
