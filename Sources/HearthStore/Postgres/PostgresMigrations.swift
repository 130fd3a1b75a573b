import Foundation
import Logging
import PostgresNIO

/// PostgreSQL's schema, versioned like SQLite's: each migration runs once, in order, in one
/// transaction, recorded in `hearth_migrations`. Several processes may start at once: an
/// advisory lock makes them take turns. A database with tables but no `hearth_migrations` is
/// not Hearth's and is left alone; one with a migration this Hearth does not know is newer.
enum PostgresMigrations {
    /// (identifier, SQL). Never edit a shipped one: add a new one at the end.
    static let all: [(String, String)] = [
        ("v1-schema", schema), ("v2-picture-bytes", pictureBytes),
        // An author's recipes newest first straight from the index (profiles, !recipes USER).
        ("v3-recipe-author-order", "CREATE INDEX recipe_account_id ON recipe(accountId, id)"),
        ("v4-network", network),
        ("v5-account-tally", accountTally),
        // Every network event is logged, by node, for nodes catching up after losing the bus.
        (
            "v6-network-log",
            """
            ALTER TABLE networkEvent ADD COLUMN fromNode TEXT NOT NULL DEFAULT '';
            CREATE INDEX networkEvent_node ON networkEvent(fromNode, id);
            CREATE INDEX networkEvent_age ON networkEvent(createdAt)
            """
        ),
        // Which node made a channel first decides its operator and its history (see claimChannel).
        (
            "v7-network-channel",
            """
            CREATE TABLE networkChannel (
                channelKey TEXT PRIMARY KEY, historyKey TEXT NOT NULL,
                createdAt TIMESTAMPTZ NOT NULL DEFAULT now())
            """
        ),
        // SCRAM-SHA-256 keys (base64), written whenever the password is known; never the password.
        (
            "v8-scram",
            """
            CREATE TABLE scramCredential (
                accountId BIGINT PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE, salt TEXT NOT NULL,
                iterations BIGINT NOT NULL, storedKey TEXT NOT NULL, serverKey TEXT NOT NULL)
            """
        ),
        // Deleting a founder's account deleted the family with everyone's posts in it: the
        // founder's role now passes on first (`departFamilies`), and the key refuses the delete
        // if it did not.
        (
            "v10-family-outlives-founder",
            """
            ALTER TABLE family DROP CONSTRAINT family_founderid_fkey;
            ALTER TABLE family ADD CONSTRAINT family_founderid_fkey FOREIGN KEY (founderId) REFERENCES account(id)
            """
        ),
        // A day given once (a cookie, a first visit) keeps when it started and ended where the person
        // was, so a change of time zone cannot make the same day twice. An older row's date was its
        // day in the person's zone: it gets that date's instants in the zone the account has set
        // now (UTC if none, or if PostgreSQL does not know it), so the next local day follows it as
        // before; UTC instants would cost everyone east of UTC a day. A cookie keeps the streak it
        // made (older ones: their place in their run of consecutive dates). SQLite: LocalDayMigration.
        (
            "v12-local-day-instants",
            """
            CREATE TEMPORARY TABLE legacyZone AS
              SELECT account.id AS accountId, COALESCE(setting.value, 'UTC') AS tzName FROM account
              LEFT JOIN setting ON setting.accountId = account.id AND setting.key = 'tz'
                AND setting.value IN (SELECT name FROM pg_timezone_names);
            ALTER TABLE fortune ADD COLUMN dayStart TIMESTAMPTZ, ADD COLUMN dayEnd TIMESTAMPTZ,
              ADD COLUMN streak BIGINT NOT NULL DEFAULT 1;
            UPDATE fortune SET dayStart = day::date::timestamp AT TIME ZONE tzName,
              dayEnd = (day::date + 1)::timestamp AT TIME ZONE tzName
              FROM legacyZone WHERE legacyZone.accountId = fortune.accountId;
            ALTER TABLE fortune ALTER COLUMN dayStart SET NOT NULL, ALTER COLUMN dayEnd SET NOT NULL;
            CREATE INDEX fortune_account_end ON fortune(accountId, dayEnd);
            ALTER TABLE pointsEvent ADD COLUMN dayStart TIMESTAMPTZ, ADD COLUMN dayEnd TIMESTAMPTZ;
            UPDATE pointsEvent SET dayStart = day::date::timestamp AT TIME ZONE tzName,
              dayEnd = (day::date + 1)::timestamp AT TIME ZONE tzName
              FROM legacyZone WHERE legacyZone.accountId = pointsEvent.accountId;
            ALTER TABLE pointsEvent ALTER COLUMN dayStart SET NOT NULL, ALTER COLUMN dayEnd SET NOT NULL;
            DROP TABLE legacyZone;
            UPDATE fortune SET streak = run.streak FROM (
              SELECT id, ROW_NUMBER() OVER (PARTITION BY accountId, island ORDER BY day) AS streak FROM (
                SELECT id, accountId, day,
                  day::date - (ROW_NUMBER() OVER (PARTITION BY accountId ORDER BY day))::int AS island
                FROM fortune) AS numbered) AS run
            WHERE run.id = fortune.id
            """
        ),
        // Names accounts had before `!rename`: old links and `!profile OLD` lead to the account
        // until someone takes the name (registering or renaming deletes the row).
        (
            "v13-former-names",
            """
            CREATE TABLE formerName (
                nameKey TEXT PRIMARY KEY, accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE);
            CREATE INDEX formerName_on_accountId ON formerName(accountId)
            """
        ),
        // Operators' invites (`hearth invite`): N registrations past the per-address limit.
        (
            "v14-registration-invites",
            """
            CREATE TABLE registrationInvite (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, codeHash TEXT NOT NULL UNIQUE,
                usesLeft BIGINT NOT NULL, expiresAt TIMESTAMPTZ NOT NULL, createdAt TIMESTAMPTZ NOT NULL)
            """
        ),
        // Channel state in one order across nodes (NetworkChannelStore): a version per channel.
        (
            "v15-network-channel-state",
            """
            CREATE TABLE networkChannelState (
                channelKey TEXT PRIMARY KEY, historyKey TEXT NOT NULL, version BIGINT NOT NULL, state TEXT)
            """
        ),
        // Full-text search of chat history (`searchHistory`): the PRIVMSG and NOTICE lines' words
        // ('simple') with their scope as lexemes no text makes — "@" and the target, "@u:<id>" per
        // account of a conversation — under GIN, so a search is limited to what its reader may read
        // inside the index. Generated: existing history is indexed here, a deleted line goes with it.
        (
            "v17-history-search",
            """
            ALTER TABLE history ADD COLUMN search TSVECTOR GENERATED ALWAYS AS (
              CASE WHEN command IN ('PRIVMSG', 'NOTICE') THEN to_tsvector('simple', text)
                || array_to_tsvector(CASE WHEN target LIKE 'pm:%'
                  THEN ARRAY['@' || target, '@u:' || split_part(target, ':', 2), '@u:' || split_part(target, ':', 3)]
                  ELSE ARRAY['@' || target] END)
              END) STORED;
            CREATE INDEX history_search ON history USING GIN (search)
            """
        ),
        // Web Push subscriptions, one per device (endpoint), for the site and draft/webpush.
        (
            "v19-push-subscriptions",
            """
            CREATE TABLE pushSubscription (
                endpoint TEXT PRIMARY KEY, accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                p256dh TEXT NOT NULL, auth TEXT NOT NULL, source TEXT NOT NULL, kinds TEXT NOT NULL,
                createdAt TIMESTAMPTZ NOT NULL, expiresAt TIMESTAMPTZ NOT NULL);
            CREATE INDEX pushSubscription_on_accountId ON pushSubscription(accountId)
            """
        ),
        // Profile fields set from IRC clients (draft/metadata-2: display-name, pronouns, …).
        (
            "v20-profile-fields",
            """
            CREATE TABLE profileField (
                accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, key TEXT NOT NULL,
                value TEXT NOT NULL, PRIMARY KEY (accountId, key))
            """
        ),
        // Client-only tags kept with their message (+draft/react, +draft/reply), and the message a
        // reaction, reply or edit acts on, so a redaction takes its reactions and edits too.
        (
            "v21-history-tags",
            """
            ALTER TABLE history ADD COLUMN tags TEXT NOT NULL DEFAULT '', ADD COLUMN refMsgid TEXT;
            CREATE INDEX history_ref ON history(refMsgid) WHERE refMsgid IS NOT NULL
            """
        ),
        // The search index's pending list (GIN's fast update) is read whole by every search: at the
        // default 4 MB a search over an absent word took 32 ms, with the list cleaned 0.4 ms.
        ("v22-history-search-pending-list", "ALTER INDEX history_search SET (gin_pending_list_limit = 256)"),
        // Recipe search finds "noodles" for "noodle" ('english' stems) and "crème" for "creme"
        // (accents folded by `translate`, which needs no extension, unlike unaccent).
        (
            "v23-recipe-search-stems-and-accents",
            """
            ALTER TABLE recipe DROP COLUMN search;
            ALTER TABLE recipe ADD COLUMN search TSVECTOR GENERATED ALWAYS AS (
                setweight(to_tsvector('english', \(foldingAccents("title"))), 'A')
                || setweight(to_tsvector('english', \(foldingAccents("tags"))), 'B')
                || setweight(to_tsvector('english', \(foldingAccents("ingredients"))), 'C')
                || setweight(to_tsvector('english', \(foldingAccents("steps"))), 'D')
            ) STORED;
            CREATE INDEX recipe_search ON recipe USING GIN (search)
            """
        ),
        // SHA-256 fingerprints of TLS client certificates an account logs in with (SASL EXTERNAL).
        (
            "v26-client-certificates",
            """
            CREATE TABLE clientCertificate (
                fingerprint TEXT PRIMARY KEY, accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                createdAt TIMESTAMPTZ NOT NULL);
            CREATE INDEX clientCertificate_on_accountId ON clientCertificate(accountId)
            """
        ),
        // People in a family's tree who are not users (ancestors, the dead, young children): links
        // name them as minus their number, so a link's ends are no longer all accounts (rewritten
        // when a member leaves the tree, `detach`). Partners keep their marriage's date and place.
        (
            "v27-family-people-who-are-not-users",
            """
            ALTER TABLE familyLink DROP CONSTRAINT familylink_fromid_fkey,
                DROP CONSTRAINT familylink_toid_fkey, ADD COLUMN eventDate TEXT, ADD COLUMN eventPlace TEXT;
            CREATE TABLE familyPerson (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                familyId BIGINT NOT NULL REFERENCES family(id) ON DELETE CASCADE,
                name TEXT NOT NULL, sex TEXT, born TEXT, bornPlace TEXT, died TEXT, diedPlace TEXT,
                accountId BIGINT REFERENCES account(id) ON DELETE SET NULL,
                claimantId BIGINT REFERENCES account(id) ON DELETE SET NULL,
                addedBy BIGINT REFERENCES account(id) ON DELETE SET NULL, createdAt TIMESTAMPTZ NOT NULL);
            CREATE INDEX familyPerson_family ON familyPerson(familyId);
            CREATE UNIQUE INDEX familyPerson_account ON familyPerson(familyId, accountId) WHERE accountId IS NOT NULL
            """
        ),
        // Operators' server bans (UBAN), and what registered channels keep across restarts: their
        // ban, exception and invite-exception masks and who gets op or voice on join.
        (
            "v29-server-bans-and-channel-lists",
            """
            CREATE TABLE serverBan (
                target TEXT PRIMARY KEY, kind TEXT NOT NULL, reason TEXT NOT NULL, setBy TEXT NOT NULL,
                createdAt TIMESTAMPTZ NOT NULL, expiresAt TIMESTAMPTZ);
            CREATE TABLE channelListEntry (
                nameKey TEXT NOT NULL REFERENCES registeredChannel(nameKey) ON DELETE CASCADE,
                mode TEXT NOT NULL, mask TEXT NOT NULL, setBy TEXT NOT NULL, setAt TIMESTAMPTZ NOT NULL,
                byOper BOOLEAN NOT NULL DEFAULT FALSE, PRIMARY KEY (nameKey, mode, mask));
            CREATE TABLE channelAccess (
                nameKey TEXT NOT NULL REFERENCES registeredChannel(nameKey) ON DELETE CASCADE,
                accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, level TEXT NOT NULL,
                PRIMARY KEY (nameKey, accountId))
            """
        ),
        // The web chat's one-time sign-in tickets (by hash), kept where every node reads them.
        (
            "v30-chat-tickets",
            """
            CREATE TABLE chatTicket (
                hash TEXT PRIMARY KEY, accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                tokenHash TEXT NOT NULL, expiresAt TIMESTAMPTZ NOT NULL);
            CREATE INDEX chatTicket_on_expiresAt ON chatTicket(expiresAt)
            """
        ),
        // Always-on accounts kept present while none of their devices is connected.
        (
            "v31-always-on-presence",
            """
            CREATE TABLE alwaysOnPresence (
                accountId BIGINT PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
                nick TEXT NOT NULL, userName TEXT NOT NULL, host TEXT NOT NULL, realname TEXT NOT NULL,
                channels TEXT NOT NULL, since TIMESTAMPTZ NOT NULL)
            """
        ),
        // Sayings users write for their friends' cookies, some proposed to (and approved for) the
        // public pool; and the page an imported recipe draft came from.
        (
            "v32-user-sayings-and-imported-draft-source",
            """
            CREATE TABLE saying (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                text TEXT NOT NULL, status TEXT NOT NULL, createdAt TIMESTAMPTZ NOT NULL,
                decidedAt TIMESTAMPTZ, decidedBy BIGINT REFERENCES account(id) ON DELETE SET NULL);
            CREATE INDEX saying_on_accountId ON saying(accountId, id);
            CREATE INDEX saying_on_status ON saying(status, id);
            ALTER TABLE recipeDraft ADD COLUMN source TEXT
            """
        ),
        // What an imported template pack says of each template (keywords and example as JSON
        // arrays, as on SQLite); and one global template per name (NULL owners never clashed).
        (
            "v33-template-pack-details-and-unique-global-names",
            """
            ALTER TABLE template ADD COLUMN title TEXT;
            ALTER TABLE template ADD COLUMN keywords TEXT NOT NULL DEFAULT '[]';
            ALTER TABLE template ADD COLUMN source TEXT;
            ALTER TABLE template ADD COLUMN example TEXT NOT NULL DEFAULT '[]';
            DELETE FROM template WHERE ownerId IS NULL
              AND id NOT IN (SELECT MIN(id) FROM template WHERE ownerId IS NULL GROUP BY nameKey);
            CREATE UNIQUE INDEX template_global_name ON template(nameKey) WHERE ownerId IS NULL
            """
        ),
        // How many a recipe (and a draft) feeds, so its amounts can be scaled for more or fewer.
        (
            "v35-recipe-servings",
            """
            ALTER TABLE recipe ADD COLUMN servings BIGINT;
            ALTER TABLE recipeDraft ADD COLUMN servings BIGINT
            """
        ),
        // A family's (or a person's) week of planned recipes and the shopping list built from it,
        // filed under the household's key; a family, account or recipe that goes takes its rows.
        (
            "v36-meal-plan-and-shopping-list",
            """
            CREATE TABLE mealPlan (
                owner TEXT NOT NULL, familyId BIGINT REFERENCES family(id) ON DELETE CASCADE,
                accountId BIGINT REFERENCES account(id) ON DELETE CASCADE, day BIGINT NOT NULL,
                recipeId BIGINT NOT NULL REFERENCES recipe(id) ON DELETE CASCADE,
                seq BIGINT GENERATED ALWAYS AS IDENTITY, PRIMARY KEY (owner, day, recipeId));
            CREATE INDEX mealPlan_recipe ON mealPlan(recipeId);
            CREATE TABLE shopItem (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, owner TEXT NOT NULL,
                familyId BIGINT REFERENCES family(id) ON DELETE CASCADE,
                accountId BIGINT REFERENCES account(id) ON DELETE CASCADE,
                planKey TEXT, text TEXT NOT NULL, ticked BOOLEAN NOT NULL DEFAULT false,
                createdAt TIMESTAMPTZ NOT NULL);
            CREATE INDEX shopItem_owner ON shopItem(owner, id)
            """
        ),
        // The days whose birthdays and anniversaries a family was told of: once per day, whichever
        // node or restart gets there first.
        (
            "v37-family-announcements",
            """
            CREATE TABLE familyAnnouncement (
                familyId BIGINT NOT NULL REFERENCES family(id) ON DELETE CASCADE,
                day TEXT NOT NULL, announcedAt TIMESTAMPTZ NOT NULL, PRIMARY KEY (familyId, day))
            """
        ),
        // Network events in their compact binary form (`payload` then holds what a node reading
        // only JSON refuses as newer); JSON rows of nodes before it keep `data` NULL.
        ("v38-network-event-binary", "ALTER TABLE networkEvent ADD COLUMN data BYTEA"),
        // Phrase search by word pairs (`HistorySearchPairs`): the store writes each PRIVMSG and
        // NOTICE line's pairs, GIN finds a phrase's few candidates. Lines written before stay NULL
        // (no rewrite here) until `indexHistoryForSearch` fills them in batches; the partial index
        // finds those, and a search checks them as it did before.
        (
            "v39-history-search-pairs",
            """
            ALTER TABLE history ADD COLUMN searchPairs TSVECTOR;
            CREATE INDEX history_search_pairs ON history USING GIN (searchPairs)
              WITH (gin_pending_list_limit = 256);
            CREATE INDEX history_search_pairs_todo ON history (id)
              WHERE searchPairs IS NULL AND command IN ('PRIVMSG', 'NOTICE')
            """
        ),
        // Each list numbers its own lines 1, 2, 3… (`shopList.lastNumber`, never reused while the
        // list has lines), and a tick remembers who ticked.
        (
            "v40-shop-item-numbers-and-tickers",
            """
            ALTER TABLE shopItem ADD COLUMN number BIGINT NOT NULL DEFAULT 0;
            ALTER TABLE shopItem ADD COLUMN tickedBy TEXT;
            UPDATE shopItem SET number =
              (SELECT COUNT(*) FROM shopItem s WHERE s.owner = shopItem.owner AND s.id <= shopItem.id);
            CREATE TABLE shopList (
                owner TEXT PRIMARY KEY, familyId BIGINT REFERENCES family(id) ON DELETE CASCADE,
                accountId BIGINT REFERENCES account(id) ON DELETE CASCADE, lastNumber BIGINT NOT NULL);
            INSERT INTO shopList (owner, familyId, accountId, lastNumber)
              SELECT owner, MAX(familyId), MAX(accountId), MAX(number) FROM shopItem GROUP BY owner
            """
        ),
        // Phrase search by pairs under their line's scope (`HistorySearchScopedPairs`): GIN hands
        // back only the reader's candidates (with v39's bare pairs nine in ten were another
        // channel's). Lines written before stay NULL until `indexHistoryForSearch` fills them (the
        // partial index finds them meanwhile, checked as before). v39's indexes go; its column
        // stays for older nodes still writing it while a network is upgraded one node at a time.
        (
            "v41-history-search-scoped-pairs",
            """
            ALTER TABLE history ADD COLUMN searchScopedPairs TSVECTOR;
            CREATE INDEX history_search_scoped_pairs ON history USING GIN (searchScopedPairs)
              WITH (gin_pending_list_limit = 256);
            CREATE INDEX history_search_scoped_pairs_todo ON history (id)
              WHERE searchScopedPairs IS NULL AND command IN ('PRIVMSG', 'NOTICE');
            DROP INDEX history_search_pairs;
            DROP INDEX history_search_pairs_todo
            """
        ),
    ]

    /// `text` with the accents of Latin letters taken off ("crème" is "creme"), for recipe search:
    /// its index and its queries fold alike. The index was built with these letters; changing
    /// them needs a migration that rebuilds it.
    static func foldingAccents(_ text: String) -> String {
        "translate(\(text), 'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿ', "
            + "'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOOooooooUUUUuuuuYyy')"
    }

    /// Counts a profile shows, kept by triggers: counting an account's 10,000 recipes on every
    /// `!profile` cost PostgreSQL a millisecond of CPU (SQLite counts its index in a fraction).
    static let accountTally = """
        CREATE TABLE accountTally (
            accountId BIGINT PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE,
            recipes BIGINT NOT NULL DEFAULT 0, memes BIGINT NOT NULL DEFAULT 0,
            followers BIGINT NOT NULL DEFAULT 0, following BIGINT NOT NULL DEFAULT 0);
        CREATE FUNCTION hearth_tally(who BIGINT, recipes BIGINT, memes BIGINT, followers BIGINT, following BIGINT)
        RETURNS void LANGUAGE sql AS $$
          INSERT INTO accountTally AS t (accountId, recipes, memes, followers, following)
          SELECT who, recipes, memes, followers, following WHERE EXISTS (SELECT 1 FROM account WHERE id = who)
          ON CONFLICT (accountId) DO UPDATE SET
            recipes = t.recipes + excluded.recipes, memes = t.memes + excluded.memes,
            followers = t.followers + excluded.followers, following = t.following + excluded.following
        $$;
        CREATE FUNCTION hearth_tally_recipe() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
          IF TG_OP = 'INSERT' THEN PERFORM hearth_tally(NEW.accountId, 1, 0, 0, 0);
          ELSE PERFORM hearth_tally(OLD.accountId, -1, 0, 0, 0);
          END IF;
          RETURN NULL;
        END $$;
        CREATE TRIGGER recipe_tally AFTER INSERT OR DELETE ON recipe
          FOR EACH ROW EXECUTE FUNCTION hearth_tally_recipe();
        CREATE FUNCTION hearth_tally_meme() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
          IF TG_OP = 'INSERT' THEN PERFORM hearth_tally(NEW.accountId, 0, 1, 0, 0);
          ELSE PERFORM hearth_tally(OLD.accountId, 0, -1, 0, 0);
          END IF;
          RETURN NULL;
        END $$;
        CREATE TRIGGER meme_tally AFTER INSERT OR DELETE ON meme FOR EACH ROW EXECUTE FUNCTION hearth_tally_meme();
        CREATE FUNCTION hearth_tally_follow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
          IF TG_OP = 'INSERT' THEN
            PERFORM hearth_tally(NEW.followeeId, 0, 0, 1, 0);
            PERFORM hearth_tally(NEW.followerId, 0, 0, 0, 1);
          ELSE
            PERFORM hearth_tally(OLD.followeeId, 0, 0, -1, 0);
            PERFORM hearth_tally(OLD.followerId, 0, 0, 0, -1);
          END IF;
          RETURN NULL;
        END $$;
        CREATE TRIGGER follow_tally AFTER INSERT OR DELETE ON follow
          FOR EACH ROW EXECUTE FUNCTION hearth_tally_follow();
        INSERT INTO accountTally (accountId, recipes, memes, followers, following)
        SELECT id, (SELECT COUNT(*) FROM recipe WHERE accountId = account.id),
          (SELECT COUNT(*) FROM meme WHERE accountId = account.id),
          (SELECT COUNT(*) FROM follow WHERE followeeId = account.id),
          (SELECT COUNT(*) FROM follow WHERE followerId = account.id) FROM account
        """

    /// A network of nodes: their heartbeats, who holds which nick where, and events too big
    /// for a notification.
    static let network = """
        CREATE TABLE node (
            name TEXT PRIMARY KEY, startedAt TIMESTAMPTZ NOT NULL, heartbeatAt TIMESTAMPTZ NOT NULL,
            users INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE networkNick (
            nickKey TEXT NOT NULL, node TEXT NOT NULL, session BIGINT NOT NULL, accountId BIGINT,
            PRIMARY KEY (nickKey, node, session));
        CREATE INDEX networkNick_node ON networkNick(node);
        CREATE TABLE networkEvent (
            id BIGSERIAL PRIMARY KEY, payload TEXT NOT NULL, createdAt TIMESTAMPTZ NOT NULL DEFAULT now());
        """

    /// Picture bytes, content-addressed (a hash of the bytes), and which picture has which.
    static let pictureBytes = """
        CREATE TABLE pictureBlob (hash TEXT PRIMARY KEY, bytes BYTEA NOT NULL);
        CREATE TABLE pictureRef (imageId TEXT PRIMARY KEY, hash TEXT NOT NULL REFERENCES pictureBlob(hash));
        CREATE INDEX pictureRef_hash ON pictureRef(hash);
        """

    /// A migration's statements: split where a line ends with ";", except inside a function
    /// body (between `$$` marks), whose statements end lines too.
    static func statements(_ sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var inBody = false
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            current += line + "\n"
            if line.components(separatedBy: "$$").count % 2 == 0 { inBody.toggle() }
            if !inBody && line.hasSuffix(";") {
                statements.append(String(current.dropLast(2)))
                current = ""
            }
        }
        statements.append(current)
        return statements.filter { !$0.allSatisfy(\.isWhitespace) }
    }

    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        do {
            try await steps(connection, logger: logger)
        } catch let error as PostgresTransactionError {
            throw PostgresStore.unwrap(error)
        }
    }

    static func steps(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { db in
            try await db.query("SELECT pg_advisory_xact_lock(72517001)", logger: logger)
            let known =
                try await db.query(
                    "SELECT to_regclass('hearth_migrations') IS NOT NULL", logger: logger
                ).collect().first?.decode(Bool.self) ?? false
            if !known {
                let tables =
                    try await db.query(
                        "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()", logger: logger
                    ).collect().first?.decode(Int64.self) ?? 0
                if tables > 0 {
                    throw PostgresStore.OpenProblem(
                        description: "the database is not Hearth's: it has \(tables) tables but no hearth_migrations "
                            + "(give Hearth an empty database of its own)")
                }
                try await db.query(
                    "CREATE TABLE hearth_migrations (identifier TEXT PRIMARY KEY, appliedAt TIMESTAMPTZ NOT NULL)",
                    logger: logger)
            }
            var applied: Set<String> = []
            for try await identifier in try await db.query(
                "SELECT identifier FROM hearth_migrations", logger: logger
            ).decode(String.self) {
                applied.insert(identifier)
            }
            let names = Set(all.map(\.0))
            if let newer = applied.subtracting(names).sorted().first {
                throw PostgresStore.OpenProblem(
                    description: "the database's schema is newer than this Hearth (it has migration \(newer)); "
                        + "run a newer Hearth")
            }
            for (identifier, sql) in all where !applied.contains(identifier) {
                logger.notice("database: applying migration \(identifier)")
                // The extended protocol takes one statement at a time.
                for statement in statements(sql) {
                    try await db.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await db.query(
                    "INSERT INTO hearth_migrations (identifier, appliedAt) VALUES (\(identifier), now())",
                    logger: logger)
            }
        }
    }

    /// The whole schema as SQLite has it after all its migrations; names are unquoted, so
    /// PostgreSQL folds them to lower case everywhere alike.
    static let schema = """
        CREATE TABLE account (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, name TEXT NOT NULL, nameKey TEXT NOT NULL UNIQUE,
            passwordHash TEXT NOT NULL, email TEXT, phone TEXT, createdAt TIMESTAMPTZ NOT NULL,
            bio TEXT NOT NULL DEFAULT '', avatarImageId TEXT);
        CREATE TABLE resumeToken (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, tokenHash TEXT NOT NULL UNIQUE,
            createdAt TIMESTAMPTZ NOT NULL, expiresAt TIMESTAMPTZ NOT NULL);
        CREATE INDEX resumeToken_on_accountId ON resumeToken(accountId);
        CREATE TABLE recoveryCode (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, codeHash TEXT NOT NULL,
            usedAt TIMESTAMPTZ, UNIQUE (accountId, codeHash));
        CREATE TABLE follow (
            followerId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            followeeId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, createdAt TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (followerId, followeeId));
        CREATE INDEX follow_followee ON follow(followeeId, followerId);
        CREATE TABLE block (
            blockerId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            blockedId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, createdAt TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (blockerId, blockedId));
        CREATE INDEX block_blocked ON block(blockedId, blockerId);
        CREATE TABLE setting (
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, key TEXT NOT NULL,
            value TEXT NOT NULL, PRIMARY KEY (accountId, key));
        CREATE TABLE activity (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, kind TEXT NOT NULL,
            subjectId BIGINT, text TEXT NOT NULL, createdAt TIMESTAMPTZ NOT NULL);
        CREATE INDEX activity_account ON activity(accountId, id);
        CREATE TABLE offlineMessage (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            recipientId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            senderId BIGINT REFERENCES account(id) ON DELETE SET NULL, senderName TEXT NOT NULL, text TEXT NOT NULL,
            createdAt TIMESTAMPTZ NOT NULL);
        CREATE INDEX offlineMessage_recipient ON offlineMessage(recipientId, id);
        CREATE TABLE registeredChannel (
            nameKey TEXT PRIMARY KEY, name TEXT NOT NULL,
            ownerId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, topic TEXT NOT NULL DEFAULT '',
            topicSetBy TEXT NOT NULL DEFAULT '', topicSetAt TIMESTAMPTZ, flags TEXT NOT NULL DEFAULT 'nt',
            channelKey TEXT, userLimit BIGINT, createdAt TIMESTAMPTZ NOT NULL);
        CREATE INDEX registeredChannel_on_ownerId ON registeredChannel(ownerId);
        CREATE TABLE history (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, target TEXT NOT NULL, msgid TEXT NOT NULL,
            source TEXT NOT NULL, accountId BIGINT REFERENCES account(id) ON DELETE SET NULL,
            command TEXT NOT NULL, text TEXT NOT NULL, createdAt TIMESTAMPTZ NOT NULL);
        CREATE INDEX history_target ON history(target, id);
        CREATE INDEX history_time ON history(createdAt);
        CREATE TABLE historyAccess (
            target TEXT NOT NULL, accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            PRIMARY KEY (accountId, target));
        CREATE INDEX historyAccess_target ON historyAccess(target);
        CREATE TABLE readMarker (
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, target TEXT NOT NULL,
            readAt TIMESTAMPTZ NOT NULL, PRIMARY KEY (accountId, target));
        CREATE TABLE image (
            id TEXT PRIMARY KEY, ownerId BIGINT REFERENCES account(id) ON DELETE CASCADE, kind TEXT NOT NULL,
            format TEXT NOT NULL, width BIGINT NOT NULL, height BIGINT NOT NULL, bytes BIGINT NOT NULL,
            createdAt TIMESTAMPTZ NOT NULL);
        CREATE INDEX image_on_ownerId ON image(ownerId);
        CREATE TABLE uploadTicket (
            tokenHash TEXT PRIMARY KEY, accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            expiresAt TIMESTAMPTZ NOT NULL);
        CREATE TABLE template (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            ownerId BIGINT REFERENCES account(id) ON DELETE CASCADE, name TEXT NOT NULL, nameKey TEXT NOT NULL,
            imageId TEXT NOT NULL REFERENCES image(id) ON DELETE CASCADE, boxes TEXT NOT NULL,
            createdAt TIMESTAMPTZ NOT NULL);
        CREATE UNIQUE INDEX template_owner_name ON template(ownerId, nameKey);
        CREATE TABLE meme (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            imageId TEXT NOT NULL REFERENCES image(id), source TEXT NOT NULL, caption TEXT NOT NULL,
            likes BIGINT NOT NULL DEFAULT 0, favs BIGINT NOT NULL DEFAULT 0, comments BIGINT NOT NULL DEFAULT 0,
            createdAt TIMESTAMPTZ NOT NULL);
        CREATE INDEX meme_account ON meme(accountId, id);
        CREATE TABLE memeLike (
            memeId BIGINT NOT NULL REFERENCES meme(id) ON DELETE CASCADE,
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, createdAt TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (memeId, accountId));
        CREATE TABLE memeFav (
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            memeId BIGINT NOT NULL REFERENCES meme(id) ON DELETE CASCADE, createdAt TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (accountId, memeId));
        CREATE TABLE renderCache (
            renderKey TEXT PRIMARY KEY, imageId TEXT NOT NULL REFERENCES image(id) ON DELETE CASCADE);
        CREATE TABLE comment (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, kind TEXT NOT NULL, targetId BIGINT NOT NULL,
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, text TEXT NOT NULL,
            createdAt TIMESTAMPTZ NOT NULL);
        CREATE INDEX comment_target ON comment(kind, targetId, id);
        CREATE TABLE fortune (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, day TEXT NOT NULL,
            sayingKey TEXT NOT NULL, round BIGINT NOT NULL, text TEXT NOT NULL, numbers TEXT NOT NULL,
            lat DOUBLE PRECISION, lon DOUBLE PRECISION, place TEXT, points BIGINT NOT NULL,
            openedAt TIMESTAMPTZ NOT NULL);
        CREATE UNIQUE INDEX fortune_account_day ON fortune(accountId, day);
        CREATE TABLE pointsEvent (
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, kind TEXT NOT NULL, day TEXT NOT NULL,
            points BIGINT NOT NULL, createdAt TIMESTAMPTZ NOT NULL, PRIMARY KEY (accountId, kind, day));
        CREATE TABLE lastLocation (
            accountId BIGINT PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE, lat DOUBLE PRECISION NOT NULL,
            lon DOUBLE PRECISION NOT NULL, label TEXT, at TIMESTAMPTZ NOT NULL);
        CREATE TABLE recipe (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, title TEXT NOT NULL,
            ingredients TEXT NOT NULL, steps TEXT NOT NULL, photoImageId TEXT, tags TEXT NOT NULL DEFAULT '',
            source TEXT, ups BIGINT NOT NULL DEFAULT 0, downs BIGINT NOT NULL DEFAULT 0,
            comments BIGINT NOT NULL DEFAULT 0, createdAt TIMESTAMPTZ NOT NULL, updatedAt TIMESTAMPTZ NOT NULL,
            search TSVECTOR GENERATED ALWAYS AS (
                setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', tags), 'B')
                || setweight(to_tsvector('simple', ingredients), 'C') || setweight(to_tsvector('simple', steps), 'D')
            ) STORED);
        CREATE INDEX recipe_on_accountId ON recipe(accountId);
        CREATE INDEX recipe_search ON recipe USING GIN (search);
        CREATE TABLE recipeDraft (
            accountId BIGINT PRIMARY KEY REFERENCES account(id) ON DELETE CASCADE, stage TEXT NOT NULL,
            title TEXT NOT NULL, ingredients TEXT NOT NULL, steps TEXT NOT NULL, photoImageId TEXT,
            tags TEXT NOT NULL, updatedAt TIMESTAMPTZ NOT NULL);
        CREATE TABLE recipeVote (
            recipeId BIGINT NOT NULL REFERENCES recipe(id) ON DELETE CASCADE,
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, value BIGINT NOT NULL,
            PRIMARY KEY (recipeId, accountId));
        CREATE TABLE recipeSave (
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            recipeId BIGINT NOT NULL REFERENCES recipe(id) ON DELETE CASCADE, createdAt TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (accountId, recipeId));
        CREATE TABLE family (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, name TEXT NOT NULL,
            founderId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            parentFamilyId BIGINT REFERENCES family(id) ON DELETE SET NULL, createdAt TIMESTAMPTZ NOT NULL);
        CREATE INDEX family_on_founderId ON family(founderId);
        CREATE TABLE familyMember (
            familyId BIGINT NOT NULL REFERENCES family(id) ON DELETE CASCADE,
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, role TEXT NOT NULL,
            joinedAt TIMESTAMPTZ NOT NULL, PRIMARY KEY (familyId, accountId));
        CREATE INDEX familyMember_on_accountId ON familyMember(accountId);
        CREATE TABLE familyLink (
            familyId BIGINT NOT NULL REFERENCES family(id) ON DELETE CASCADE,
            fromId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
            toId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, kind TEXT NOT NULL,
            PRIMARY KEY (familyId, fromId, toId, kind));
        CREATE TABLE familyInvite (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY UNIQUE, codeHash TEXT PRIMARY KEY,
            familyId BIGINT NOT NULL REFERENCES family(id) ON DELETE CASCADE,
            inviterId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, relation TEXT,
            expiresAt TIMESTAMPTZ NOT NULL);
        CREATE TABLE familyPost (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            familyId BIGINT NOT NULL REFERENCES family(id) ON DELETE CASCADE,
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, kind TEXT NOT NULL,
            text TEXT NOT NULL, imageId TEXT, eventDate TEXT, likes BIGINT NOT NULL DEFAULT 0,
            comments BIGINT NOT NULL DEFAULT 0, createdAt TIMESTAMPTZ NOT NULL);
        CREATE INDEX familyPost_family ON familyPost(familyId, id);
        CREATE TABLE postLike (
            postId BIGINT NOT NULL REFERENCES familyPost(id) ON DELETE CASCADE,
            accountId BIGINT NOT NULL REFERENCES account(id) ON DELETE CASCADE, PRIMARY KEY (postId, accountId));
        """
}
