package dev.strand.testkit;

import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test when Netty reports a resource leak (typically an unreleased {@code ByteBuf}) during it.
 *
 * <pre>{@code
 * @ExtendWith(NettyLeakDetectorExtension.class)
 * class MyTest { ... }
 * }</pre>
 *
 * <p>After each test (and after the class's {@code @AfterAll}), it forces garbage collection and makes Netty's
 * detectors look for collected, unreleased objects; any report fails that test with Netty's access records
 * in the message. Records are detailed only at {@code -Dio.netty.leakDetection.level=PARANOID} (or
 * ADVANCED), which also makes detection certain rather than sampled. A leak surfaces once the leaked object
 * is unreachable, so a buffer held by something still alive is blamed on a later test, or on none.
 *
 * <p>Leaks found this way are not logged by Netty. See {@link CapturingLeakDetector} for how reports are
 * captured, and for a system property that makes capture independent of class-loading order.
 */
public final class NettyLeakDetectorExtension implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {

    static {
        // As early as possible: the factory only takes effect if no ByteBuf was created before it.
        CapturingLeakDetector.install();
    }

    /** Creates the extension (JUnit does, through {@code @ExtendWith}). */
    public NettyLeakDetectorExtension() {
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        CapturingLeakDetector.install();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        assertNoLeaks();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        assertNoLeaks();
    }

    /**
     * Checks for leaks now; usable without the extension. Forgets the leaks it reports.
     *
     * @throws AssertionError listing every leak Netty reported since the last check
     */
    public static void assertNoLeaks() {
        CapturingLeakDetector.install();
        List<String> leaks = CapturingLeakDetector.collect();
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " Netty resource leak(s) detected:\n"
                    + String.join("\n\n", leaks));
        }
    }
}
