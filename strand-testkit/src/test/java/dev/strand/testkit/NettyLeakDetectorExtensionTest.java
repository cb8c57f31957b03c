package dev.strand.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Proves the extension turns a leak into a test failure. The leaks here are deliberate and contained: each is
 * detected and consumed inside the test that makes it, so the build stays green.
 */
@ExtendWith(NettyLeakDetectorExtension.class)
class NettyLeakDetectorExtensionTest {

    private static final String MARK = "deliberately leaked by NettyLeakDetectorExtensionTest";

    // Only set while engineFailsTheLeakingTest runs Leaky, so Leaky does nothing if run on its own.
    private static volatile boolean armed;

    @Test
    void runsAtParanoidLevel() {
        assertEquals(ResourceLeakDetector.Level.PARANOID, ResourceLeakDetector.getLevel());
    }

    @Test
    void capturesThroughItsOwnDetectorNotTheLogFallback() throws ReflectiveOperationException {
        var field = Class.forName("io.netty.buffer.AbstractByteBuf").getDeclaredField("leakDetector");
        field.setAccessible(true);
        assertInstanceOf(CapturingLeakDetector.class, field.get(null));
    }

    @Test
    void checkThrowsWithTheLeakRecord() {
        leak(ByteBufAllocator.DEFAULT);
        AssertionError e = assertThrows(AssertionError.class, NettyLeakDetectorExtension::assertNoLeaks);
        assertTrue(e.getMessage().contains("LEAK: ByteBuf.release() was not called"), e.getMessage());
        assertTrue(e.getMessage().contains(MARK), e.getMessage());
        NettyLeakDetectorExtension.assertNoLeaks(); // reported once, then forgotten
    }

    @Test
    void pooledBuffersToo() {
        leak(PooledByteBufAllocator.DEFAULT);
        assertThrows(AssertionError.class, NettyLeakDetectorExtension::assertNoLeaks);
    }

    @Test
    void releasedBuffersAreFine() {
        ByteBuf buf = ByteBufAllocator.DEFAULT.directBuffer(64).writeLong(1);
        buf.release();
        NettyLeakDetectorExtension.assertNoLeaks();
    }

    @Test
    void engineFailsTheLeakingTest() {
        Events tests;
        armed = true;
        try {
            tests = EngineTestKit.engine("junit-jupiter").selectors(selectClass(Leaky.class)).execute().testEvents();
        } finally {
            armed = false;
        }
        tests.assertStatistics(s -> s.started(2).succeeded(1).failed(1));
        Throwable failure = tests.failed().list().get(0)
                .getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class).getThrowable().orElseThrow();
        assertInstanceOf(AssertionError.class, failure);
        assertTrue(failure.getMessage().contains(MARK), failure.getMessage());
    }

    // A separate frame, so no local variable keeps the buffer reachable.
    private static void leak(ByteBufAllocator alloc) {
        alloc.directBuffer(128).writeLong(42).touch(MARK);
    }

    @ExtendWith(NettyLeakDetectorExtension.class)
    static class Leaky {

        @Test
        void leaks() {
            Assumptions.assumeTrue(armed);
            leak(ByteBufAllocator.DEFAULT);
        }

        @Test
        void doesNotLeak() {
            Assumptions.assumeTrue(armed);
            ByteBufAllocator.DEFAULT.buffer(8).release();
        }
    }
}
