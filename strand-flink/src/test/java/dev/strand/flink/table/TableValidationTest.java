package dev.strand.flink.table;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bad options fail when a statement is planned (here: explained, so no job runs), with a
 * {@link ValidationException} naming the option.
 */
class TableValidationTest {

    private static final String BASE = "http://127.0.0.1:9";

    private StreamTableEnvironment tEnv;

    @BeforeEach
    void tables() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        tEnv = StreamTableEnvironment.create(env);
        tEnv.createTemporaryView("orders", tEnv.fromDataStream(env.fromSequence(1, 10),
                Schema.newBuilder()
                        .column("f0", DataTypes.BIGINT())
                        .columnByExpression("proc", "PROCTIME()")
                        .build()));
    }

    private void table(String name, String url, String extraOptions) {
        tEnv.executeSql("CREATE TABLE " + name + " (id BIGINT, name STRING) WITH ('connector' = 'strand-http', "
                + "'url' = '" + url + "', 'format' = 'json'" + extraOptions + ")");
    }

    /**
     * Plans a lookup join on {@code users} and returns the ValidationException it fails with: thrown as it is when
     * the table is made, wrapped by the optimizer's rule when the join's keys are checked.
     */
    private Throwable lookupFails() {
        Exception e = assertThrows(Exception.class, () -> tEnv.explainSql("SELECT o.f0, u.name FROM orders AS o "
                + "JOIN users FOR SYSTEM_TIME AS OF o.proc AS u ON o.f0 = u.id"));
        return ExceptionUtils.findThrowable(e, ValidationException.class)
                .orElseThrow(() -> new AssertionError("no ValidationException", e));
    }

    private static void assertMentions(Throwable e, String text) {
        assertTrue(TableTestCluster.causeMentions(e, text), () -> "no \"" + text + "\" in "
                + ExceptionUtils.stringifyException(e));
    }

    @Test
    void anUnclosedPlaceholderNamesTheUrlOption() {
        table("users", BASE + "/users/{id", "");
        assertMentions(lookupFails(), "Invalid value for option 'url' ('" + BASE
                + "/users/{id'): the placeholder at index 25 is not closed by '}'");
    }

    @Test
    void aPlaceholderNamingNoColumnIsRejected() {
        table("users", BASE + "/users/{user_id}", "");
        assertMentions(lookupFails(), "Invalid value for option 'url' ('" + BASE + "/users/{user_id}'): the "
                + "placeholder {user_id} names no column; the columns are [id, name]");
    }

    @Test
    void aPlaceholderThatIsNotAJoinKeyIsRejectedWhenTheJoinIsPlanned() {
        table("users", BASE + "/users/{name}", "");
        assertMentions(lookupFails(), "Invalid value for option 'url' ('" + BASE + "/users/{name}'): the "
                + "placeholder {name} is not a key of this lookup join; its keys are [id]");
    }

    @Test
    void aRelativeUrlIsRejected() {
        table("users", "/users/{id}", "");
        assertMentions(lookupFails(), "Invalid value for option 'url' ('/users/{id}'): not an absolute http(s) URL");
    }

    @Test
    void aBadHeaderNameIsRejected() {
        table("users", BASE + "/users/{id}", ", 'headers.Bad Name' = 'x'");
        assertMentions(lookupFails(), "Invalid option 'headers.Bad Name': 'Bad Name' is not a header name");
    }

    @Test
    void aFullLookupCacheIsRejected() {
        table("users", BASE + "/users/{id}", ", 'lookup.cache' = 'FULL'");
        assertMentions(lookupFails(), "Invalid value for option 'lookup.cache'");
    }

    @Test
    void aSinkWithAMalformedUrlFailsWhenTheInsertIsPlanned() {
        table("sink", BASE + "/ingest/{id", "");
        Exception e = assertThrows(ValidationException.class,
                () -> tEnv.explainSql("INSERT INTO sink SELECT f0, 'x' FROM orders"));
        assertMentions(e, "Invalid value for option 'url' ('" + BASE + "/ingest/{id'): the placeholder");
    }

    @Test
    void aSinkTakesInsertsOnly() {
        table("sink", BASE + "/ingest", "");
        Exception e = assertThrows(TableException.class, () -> tEnv.explainSql(
                "INSERT INTO sink SELECT COUNT(*), 'x' FROM orders GROUP BY MOD(f0, 2)"));
        assertMentions(e, "doesn't support consuming update");
    }
}
