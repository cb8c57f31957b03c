package dev.strand.internal.netty;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engines not yet closed, kept only when a test run asks for them ({@code -Dstrand.trackEngines=true}):
 * a test extension uses them to fail a test that leaves a connection in use or a request waiting. Off (the
 * default), each engine pays one constant check when it opens and closes.
 */
public final class OpenEngines {
  static final boolean TRACKED = Boolean.getBoolean("strand.trackEngines");
  private static final Set<NettyEngine> OPEN = ConcurrentHashMap.newKeySet();

  private OpenEngines() {}

  static void opened(NettyEngine engine) {
    if (TRACKED) {
      OPEN.add(engine);
    }
  }

  static void closed(NettyEngine engine) {
    if (TRACKED) {
      OPEN.remove(engine);
    }
  }

  /** Whether engines are tracked in this JVM. */
  public static boolean tracked() {
    return TRACKED;
  }

  /** The engines open now (identity: engines do not define equality). */
  public static Set<NettyEngine> now() {
    return Set.copyOf(OPEN);
  }
}
