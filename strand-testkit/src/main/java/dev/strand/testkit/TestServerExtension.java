package dev.strand.testkit;

import java.util.Objects;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link TestServer} per test class: started before the class's first test, closed after its last,
 * in place of the same {@code @BeforeAll}/{@code @AfterAll} pair in every class.
 *
 * {@snippet :
 * @RegisterExtension
 * static final TestServerExtension server = TestServerExtension.start();
 *
 * @Test
 * void small() {
 *   assertEquals(200, client.get(server.url("/small")).status());
 * }
 * }
 */
public final class TestServerExtension implements BeforeAllCallback, AfterAllCallback {
    private final Supplier<TestServer> starter;
    private TestServer server;

    private TestServerExtension(Supplier<TestServer> starter) {
        this.starter = Objects.requireNonNull(starter, "starter");
    }

    /** A plain HTTP server with the defaults of {@link TestServer#start()}. */
    public static TestServerExtension start() {
        return new TestServerExtension(TestServer::start);
    }

    /** A server built by {@code starter} (TLS, HTTP/2 and so on), e.g. {@code () -> TestServer.builder().http2(true).build()}. */
    public static TestServerExtension of(Supplier<TestServer> starter) {
        return new TestServerExtension(starter);
    }

    /** The running server; only between the class's first and last test. */
    public TestServer get() {
        if (server == null) {
            throw new IllegalStateException("the server runs only while the test class does (register the extension as a static field)");
        }
        return server;
    }

    /** Shortcut for {@code get().url(pathAndQuery)}. */
    public String url(String pathAndQuery) {
        return get().url(pathAndQuery);
    }

    /** Shortcut for {@code get().port()}. */
    public int port() {
        return get().port();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = starter.get();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
