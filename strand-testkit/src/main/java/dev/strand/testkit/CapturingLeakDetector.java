package dev.strand.testkit;

import io.netty.buffer.ByteBuf;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Netty {@link ResourceLeakDetector} that collects leak reports instead of logging them, so a test can
 * fail on them. {@link NettyLeakDetectorExtension} installs it; it has no JUnit dependency itself.
 *
 * <p>Netty builds its ByteBuf detector once, when {@code AbstractByteBuf} initializes, from whatever
 * {@link ResourceLeakDetectorFactory} is installed then. {@link #install()} installs this class's factory, and
 * if it comes too late (a ByteBuf was created first) it falls back to a leak listener on Netty's own detector,
 * which only hears leaks that Netty also logs at ERROR. To be independent of that ordering, start the JVM with
 * {@code -Dio.netty.customResourceLeakDetector=dev.strand.testkit.CapturingLeakDetector}.
 *
 * <p>Netty notices a leak only when the leaked object has been garbage-collected and the detector next
 * tracks something; {@link #collect()} forces both.
 *
 * @param <T> the tracked resource type
 */
public final class CapturingLeakDetector<T> extends ResourceLeakDetector<T> {

    private static final Queue<String> LEAKS = new ConcurrentLinkedQueue<>();
    private static final List<ResourceLeakDetector<?>> DETECTORS = new CopyOnWriteArrayList<>();
    private static boolean installed;

    /**
     * Used by Netty for {@code -Dio.netty.customResourceLeakDetector}.
     *
     * @param resourceType the tracked type
     * @param samplingInterval how often to sample below PARANOID level
     */
    public CapturingLeakDetector(Class<?> resourceType, int samplingInterval) {
        super(resourceType, samplingInterval);
        DETECTORS.add(this);
    }

    /**
     * Used by Netty for {@code -Dio.netty.customResourceLeakDetector}.
     *
     * @param resourceType the tracked type
     * @param samplingInterval how often to sample below PARANOID level
     * @param maxActive ignored, as by Netty
     */
    public CapturingLeakDetector(Class<?> resourceType, int samplingInterval, long maxActive) {
        this(resourceType, samplingInterval);
    }

    /**
     * Makes every Netty leak report land in this class's queue. Idempotent.
     */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        installed = true;
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new ResourceLeakDetectorFactory() {
            @Override
            public <R> ResourceLeakDetector<R> newResourceLeakDetector(Class<R> resource, int samplingInterval) {
                return new CapturingLeakDetector<>(resource, samplingInterval);
            }

            @Override
            @SuppressWarnings("deprecation") // abstract, so it must exist; Netty ignores maxActive anyway
            public <R> ResourceLeakDetector<R> newResourceLeakDetector(
                    Class<R> resource, int samplingInterval, long maxActive) {
                return newResourceLeakDetector(resource, samplingInterval);
            }
        });
        ResourceLeakDetector<?> byteBufs = byteBufDetector();
        if (!(byteBufs instanceof CapturingLeakDetector)) {
            byteBufs.setLeakListener((type, records) -> LEAKS.add(describe(type, records)));
            DETECTORS.add(byteBufs);
        }
    }

    /**
     * Garbage-collects, makes every known detector process its collected objects, and returns (and forgets)
     * the leak reports gathered since the last call. Cost: two full GCs.
     *
     * @return the leak reports, each as Netty would have logged it; empty if none
     */
    public static List<String> collect() {
        install();
        for (int i = 0; i < 2; i++) {
            awaitGc();
            poll();
        }
        List<String> found = new ArrayList<>();
        String leak;
        while ((leak = LEAKS.poll()) != null) {
            found.add(leak);
        }
        return found;
    }

    @Override
    protected boolean needReport() {
        // Netty's default asks whether ERROR logging is on; reports here must not depend on log config.
        return true;
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
        LEAKS.add(describe(resourceType, records));
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
        LEAKS.add(describe(resourceType, "\n(no access records: raise -Dio.netty.leakDetection.level to see them)"));
    }

    private static String describe(String resourceType, String records) {
        return "LEAK: " + resourceType + ".release() was not called before it was garbage-collected." + records;
    }

    /** Netty reports collected leaks only from inside track(); track (and untrack) a probe to make it look. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void poll() {
        for (ResourceLeakDetector detector : DETECTORS) {
            Object probe = new Object();
            ResourceLeakTracker<Object> tracker = detector.trackForcibly(probe);
            if (tracker != null) {
                tracker.close(probe);
            }
            Reference.reachabilityFence(probe);
        }
    }

    /** A full GC whose weak references have been handed to their queues (done by another JDK thread). */
    private static void awaitGc() {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
        System.gc();
        try {
            queue.remove(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Reference.reachabilityFence(sentinel);
    }

    private static ResourceLeakDetector<?> byteBufDetector() {
        try {
            var field = Class.forName("io.netty.buffer.AbstractByteBuf", true, ByteBuf.class.getClassLoader())
                    .getDeclaredField("leakDetector");
            field.setAccessible(true);
            return (ResourceLeakDetector<?>) field.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot reach Netty's ByteBuf leak detector", e);
        }
    }
}
