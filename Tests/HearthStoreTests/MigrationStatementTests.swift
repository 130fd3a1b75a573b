import Foundation
import Testing

@testable import HearthStore

/// PostgreSQL migrations go one statement at a time: split at line ends with ";", but not
/// inside a function body, whose own statements end lines too.
@Suite struct MigrationStatementTests {
    @Test func functionBodiesStayWhole() {
        let sql = """
            CREATE TABLE a (x INT);
            CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
              PERFORM 1;
              RETURN NULL; END $$;
            CREATE INDEX a_x ON a(x)
            """
        let statements = PostgresMigrations.statements(sql).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(statements.count == 3)
        #expect(statements[0] == "CREATE TABLE a (x INT)")
        #expect(statements[1].hasPrefix("CREATE FUNCTION f()") && statements[1].hasSuffix("END $$"))
        #expect(statements[1].contains("PERFORM 1;"))
        #expect(statements[2] == "CREATE INDEX a_x ON a(x)")
    }

    @Test func everyShippedMigrationSplitsIntoStatements() {
        for (name, sql) in PostgresMigrations.all {
            let statements = PostgresMigrations.statements(sql)
            #expect(!statements.isEmpty, "\(name)")
            // A statement never starts inside another one's function body.
            #expect(statements.allSatisfy { $0.components(separatedBy: "$$").count % 2 == 1 }, "\(name)")
        }
    }
}
