package dev.strand.internal.tls;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;

/** The loud, once-per-JVM warning that {@code Tls.insecure()} switched verification off. */
public final class InsecureWarning {
  public static final InsecureWarning GLOBAL = new InsecureWarning(System.getLogger("dev.strand.tls"));

  static final String MESSAGE = "TLS certificate and host name verification is DISABLED (Tls.insecure()): "
      + "any server is accepted and the traffic can be read and altered in transit. Use only for tests.";

  private final System.Logger logger;
  private final AtomicBoolean warned = new AtomicBoolean();

  InsecureWarning(System.Logger logger) {
    this.logger = logger;
  }

  /** Logs the warning if this is the first call; returns whether it logged. */
  public boolean warn() {
    if (!warned.compareAndSet(false, true)) {
      return false;
    }
    logger.log(Level.WARNING, MESSAGE);
    return true;
  }

  /** Whether the warning was logged already. */
  public boolean warned() {
    return warned.get();
  }
}
