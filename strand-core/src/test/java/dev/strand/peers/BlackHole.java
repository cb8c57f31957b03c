package dev.strand.peers;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A network namespace of the test's own, reached over a veth pair, whose nftables rules drop every TCP SYN:
 * a connect to {@link #V4} or {@link #V6} gets no answer at all (as a removed pod or a dead route gives),
 * not a refusal. Needs root ({@code ip}, {@code nft}); on CI it must work, elsewhere the test is skipped.
 */
final class BlackHole implements AutoCloseable {
  static final String V4 = "198.18.91.2";
  static final String V6 = "fd00:5718:91::2";
  private final String namespace;
  private final String hostSide;

  private BlackHole(String namespace, String hostSide) {
    this.namespace = namespace;
    this.hostSide = hostSide;
  }

  static BlackHole create() {
    String id = Long.toString(ProcessHandle.current().pid() % 100_000);
    BlackHole hole = new BlackHole("strand-bh-" + id, "sbh" + id);
    String peer = "sbp" + id;
    try {
      hole.run("ip", "netns", "add", hole.namespace);
    } catch (IllegalStateException e) {
      if ("true".equals(System.getenv("CI"))) {
        fail("cannot make a network namespace on CI (bin/test runs as root there): " + e.getMessage());
      }
      Assumptions.abort("no network namespace (not root?): " + e.getMessage());
    }
    try {
      hole.run("ip", "link", "add", hole.hostSide, "type", "veth", "peer", "name", peer);
      hole.run("ip", "link", "set", peer, "netns", hole.namespace);
      hole.run("ip", "addr", "add", "198.18.91.1/30", "dev", hole.hostSide);
      hole.run("ip", "-6", "addr", "add", "fd00:5718:91::1/64", "dev", hole.hostSide, "nodad");
      hole.run("ip", "link", "set", hole.hostSide, "up");
      hole.inside("ip", "addr", "add", V4 + "/30", "dev", peer);
      hole.inside("ip", "-6", "addr", "add", V6 + "/64", "dev", peer, "nodad");
      hole.inside("ip", "link", "set", peer, "up");
      hole.inside("ip", "link", "set", "lo", "up");
      hole.inside("nft", "add table inet blackhole; add chain inet blackhole input { type filter hook input priority 0; };"
          + " add rule inet blackhole input tcp flags & (syn | ack) == syn drop");
    } catch (RuntimeException e) {
      hole.close();
      throw e;
    }
    return hole;
  }

  static InetAddress address(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (java.net.UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  /** The sockets of this machine still trying to reach the namespace (SYN sent, no answer): none after a race. */
  List<String> pendingConnects() {
    String out = run("ss", "-Htn", "state", "syn-sent");
    return out.lines().filter(l -> l.contains(V4) || l.contains(V6)).toList();
  }

  private void inside(String... command) {
    String[] all = new String[command.length + 4];
    all[0] = "ip";
    all[1] = "netns";
    all[2] = "exec";
    all[3] = namespace;
    System.arraycopy(command, 0, all, 4, command.length);
    run(all);
  }

  private String run(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + ": " + out.strip());
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** Removes the namespace, and with it the veth pair and the rules. */
  @Override
  public void close() {
    try {
      run("ip", "netns", "del", namespace);
    } catch (IllegalStateException ignored) {
      // already gone
    }
    try {
      run("ip", "link", "del", hostSide);
    } catch (IllegalStateException ignored) {
      // went with the namespace
    }
  }
}
