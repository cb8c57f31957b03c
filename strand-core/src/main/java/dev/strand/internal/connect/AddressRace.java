package dev.strand.internal.connect;

import dev.strand.internal.events.CallEvents;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Happy Eyeballs (RFC 8305, §5): connects to the addresses of one name in turn, starting the next one
 * when the current attempt fails or has had {@code attemptDelay} without an answer, keeps the first
 * connection that comes up and closes every other. One event loop runs the race's state, so it needs no
 * lock; attempts may complete on other loops and hop to it.
 */
final class AddressRace {
  /** Opens one attempt: a TCP connect to {@code address}, bounded by {@code timeoutMillis}. */
  @FunctionalInterface
  interface Opener {
    ChannelFuture open(InetSocketAddress address, int timeoutMillis);
  }

  /** Why the race failed: every address's failure in the order tried, and whether they all ran out of time. */
  static final class Failed extends Exception {
    final Map<InetSocketAddress, Throwable> failures;
    final boolean timedOut;

    Failed(Map<InetSocketAddress, Throwable> failures, boolean timedOut) {
      super(describe(failures), null, false, false);
      this.failures = failures;
      this.timedOut = timedOut;
    }

    private static String describe(Map<InetSocketAddress, Throwable> failures) {
      StringJoiner each = new StringJoiner("; ", "every address failed: ", "");
      failures.forEach((address, why) -> each.add(Dialer.show(address) + " " + Dialer.reason(why)));
      return each.toString();
    }
  }

  /** What a losing attempt is failed with in the event listener's {@code connectFailed}. */
  static final class Lost extends Exception {
    Lost(InetSocketAddress winner) {
      super("another address connected first (" + Dialer.show(winner) + ")", null, false, false);
    }
  }

  private final EventLoop loop;
  private final List<InetSocketAddress> addresses;
  private final long attemptDelayNanos;
  private final long attemptTimeoutNanos;
  private final long deadlineNanos;
  private final CallEvents events;
  private final Opener opener;
  private final CompletableFuture<Channel> result = new CompletableFuture<>();
  private final Map<ChannelFuture, InetSocketAddress> pending = new LinkedHashMap<>();
  private final Map<InetSocketAddress, Throwable> failures = new LinkedHashMap<>();
  private int next;
  private ScheduledFuture<?> nextAttempt;
  private ScheduledFuture<?> deadline;

  private AddressRace(EventLoop loop, List<InetSocketAddress> addresses, Duration attemptDelay, Duration attemptTimeout,
      long deadlineNanos, CallEvents events, Opener opener) {
    this.loop = loop;
    this.addresses = addresses;
    this.attemptDelayNanos = attemptDelay.toNanos();
    this.attemptTimeoutNanos = attemptTimeout == null ? Long.MAX_VALUE : attemptTimeout.toNanos();
    this.deadlineNanos = deadlineNanos;
    this.events = events;
    this.opener = opener;
  }

  /**
   * Races {@code addresses} (in the order to try them) on {@code loop}; the future fails with {@link Failed}.
   *
   * @param deadlineNanos when the whole race gives up ({@link System#nanoTime()}), or {@link Long#MAX_VALUE}
   */
  static CompletableFuture<Channel> run(EventLoop loop, List<InetSocketAddress> addresses, Duration attemptDelay,
      Duration attemptTimeout, long deadlineNanos, CallEvents events, Opener opener) {
    AddressRace race = new AddressRace(loop, addresses, attemptDelay, attemptTimeout, deadlineNanos, events, opener);
    loop.execute(race::start);
    return race.result;
  }

  /**
   * The order RFC 8305 §4 asks for: families alternating, starting with the family of the first address
   * (the resolver's preference, which for the system resolver follows RFC 6724 and
   * {@code java.net.preferIPv6Addresses}), each family in the resolver's order.
   */
  static List<InetAddress> interleave(List<InetAddress> resolved) {
    if (resolved.size() < 2) {
      return resolved;
    }
    boolean firstIsV6 = resolved.get(0) instanceof Inet6Address;
    List<InetAddress> first = new ArrayList<>();
    List<InetAddress> second = new ArrayList<>();
    for (InetAddress a : resolved) {
      ((a instanceof Inet6Address) == firstIsV6 ? first : second).add(a);
    }
    List<InetAddress> ordered = new ArrayList<>(resolved.size());
    for (int i = 0; i < Math.max(first.size(), second.size()); i++) {
      if (i < first.size()) {
        ordered.add(first.get(i));
      }
      if (i < second.size()) {
        ordered.add(second.get(i));
      }
    }
    return ordered;
  }

  private void start() {
    if (deadlineNanos != Long.MAX_VALUE) {
      deadline = loop.schedule(this::timeUp, Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
    startNext();
  }

  private void startNext() {
    if (result.isDone() || next >= addresses.size()) {
      return;
    }
    InetSocketAddress address = addresses.get(next++);
    long remaining = deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - System.nanoTime();
    // An attempt with no limit of its own short of the race's deadline gets no connect timer from Netty: the race's
    // deadline ends it (timeUp). A channel keeps its connect timer, cancelled, for as long as it is open: 64 bytes
    // and a task in the event loop's heap that a connection need not carry.
    long limit = attemptTimeoutNanos < remaining ? attemptTimeoutNanos : Long.MAX_VALUE;
    int millis = limit == Long.MAX_VALUE ? 0 : (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(limit)));
    if (events != null) {
      events.connectStart(address);
    }
    ChannelFuture attempt = opener.open(address, millis);
    pending.put(attempt, address);
    attempt.addListener(f -> {
      if (loop.inEventLoop()) {
        finished(attempt);
      } else {
        loop.execute(() -> finished(attempt));
      }
    });
    if (next < addresses.size()) {
      nextAttempt = loop.schedule(this::startNext, attemptDelayNanos, TimeUnit.NANOSECONDS);
    }
  }

  private void finished(ChannelFuture attempt) {
    InetSocketAddress address = pending.remove(attempt);
    if (address == null) {
      return; // closed as a loser, already reported
    }
    if (attempt.isSuccess()) {
      if (result.isDone()) {
        attempt.channel().close();
        return;
      }
      if (events != null) {
        events.connectEnd(address);
      }
      stopTimers();
      closeLosers(address);
      result.complete(attempt.channel());
      return;
    }
    if (events != null) {
      events.connectFailed(address, attempt.cause());
    }
    if (result.isDone()) {
      return;
    }
    failures.put(address, attempt.cause());
    if (next < addresses.size()) {
      if (nextAttempt != null) {
        nextAttempt.cancel(false);
      }
      startNext(); // at once: RFC 8305 §5 does not wait out the delay after a failure
    } else if (pending.isEmpty()) {
      stopTimers();
      boolean allTimedOut = failures.values().stream().allMatch(t -> t instanceof io.netty.channel.ConnectTimeoutException);
      result.completeExceptionally(new Failed(inAttemptOrder(), allTimedOut));
    }
  }

  private void timeUp() {
    if (result.isDone()) {
      return;
    }
    if (nextAttempt != null) {
      nextAttempt.cancel(false);
    }
    for (Map.Entry<ChannelFuture, InetSocketAddress> p : List.copyOf(pending.entrySet())) {
      failures.put(p.getValue(), new io.netty.channel.ConnectTimeoutException("no answer"));
    }
    closeLosers(null);
    result.completeExceptionally(new Failed(inAttemptOrder(), true));
  }

  private void closeLosers(InetSocketAddress winner) {
    for (Map.Entry<ChannelFuture, InetSocketAddress> p : List.copyOf(pending.entrySet())) {
      pending.remove(p.getKey());
      p.getKey().cancel(false);
      p.getKey().channel().close();
      if (events != null && winner != null) {
        events.connectFailed(p.getValue(), new Lost(winner));
      }
    }
  }

  private void stopTimers() {
    if (nextAttempt != null) {
      nextAttempt.cancel(false);
    }
    if (deadline != null) {
      deadline.cancel(false);
    }
  }

  /** The failures in the order the addresses were tried: attempts that time out together report in any order. */
  private Map<InetSocketAddress, Throwable> inAttemptOrder() {
    Map<InetSocketAddress, Throwable> ordered = new LinkedHashMap<>();
    for (InetSocketAddress address : addresses) {
      Throwable why = failures.get(address);
      if (why != null) {
        ordered.put(address, why);
      }
    }
    return ordered;
  }
}
