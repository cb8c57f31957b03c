package dev.strand.internal.pool;

import dev.strand.ClientStats;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The connections and waiters of one origin. Every decision is made under this object's monitor and
 * costs O(1) amortized: connections with spare capacity sit on a LIFO stack (the most recently used
 * one is reused, the oldest idle one sits at the bottom for expiry), waiters in a FIFO queue, and the
 * counts are plain fields. Closing connections, connecting and calling waiters happen after the
 * monitor is released.
 */
final class OriginPool<C extends PooledConnection> {
  final Origin origin;
  private final ConnectionPool<C> owner;
  private final ArrayDeque<C> available = new ArrayDeque<>();
  private final ArrayDeque<Waiter<C>> waiters = new ArrayDeque<>();
  // Guarded by this.
  private int open; // established + connecting
  private int connecting;
  private int idle; // established with no exchange
  private int inUse; // established with at least one exchange
  private int pending; // waiters not cancelled
  // Exchanges a connection still being opened is expected to carry: 1 for HTTP/1.1, the last
  // connection's capacity once one is up. So a burst to an HTTP/2 origin waits for one connection
  // instead of opening one per request.
  private int assumedCapacity;
  // Whether assumedCapacity came from a connection that is up, not from the connector's guess.
  private boolean capacityLearned;

  OriginPool(Origin origin, ConnectionPool<C> owner) {
    this.origin = origin;
    this.owner = owner;
    this.assumedCapacity = Math.max(1, owner.connector().expectedCapacity(origin));
  }

  /** The connections that can take an exchange now (open, with room), most recently used first. */
  synchronized List<C> live() {
    List<C> out = new java.util.ArrayList<>(available.size());
    for (C c : available) {
      if (c.isOpen()) {
        out.add(c);
      }
    }
    return out;
  }

  /** Whether waiters outnumber what the connections being opened will carry, and the per-host cap allows one more. */
  private boolean needsConnect() {
    if (open >= owner.maxPerHost()) {
      return false;
    }
    if (!capacityLearned && assumedCapacity > 1) {
      // Until a multiplexing server says how many streams it allows, one connection at a time (as Go's and
      // OkHttp's HTTP/2 pools do): guessing 100 opened a thousand connections for a burst of 100,000 calls to
      // a server allowing 1,000 streams on each. Its SETTINGS come one round trip after it is up.
      return connecting == 0 && pending > 0;
    }
    return (long) connecting * assumedCapacity < pending;
  }

  /**
   * Finds a connection for {@code w}: the most recently used live one, else a new one if the caps
   * allow, else a place in line.
   *
   * @param fresh skip idle connections (a retry after a stale one failed)
   */
  Acquire acquire(Waiter<C> w, boolean fresh, long now) {
    C served = null;
    List<C> dead = null;
    boolean connect = false;
    boolean blockedByGlobalCap = false;
    Acquire outcome;
    synchronized (this) {
      if (owner.isClosed()) {
        outcome = Acquire.FAILED;
      } else {
        // Only take an idle connection when nobody is in line, so waiters stay FIFO.
        if (!fresh && pending == 0) {
          C c;
          while (served == null && (c = available.peekFirst()) != null) {
            if (!c.isOpen() || (c.active == 0 && owner.isExpired(c, now))) {
              available.pollFirst();
              c.inAvailable = false;
              if (c.active == 0) {
                removeIdle(c);
                dead = add(dead, c);
              } // else its holders release it as not reusable
            } else {
              take(c);
              served = c;
            }
          }
        }
        if (served != null) {
          outcome = Acquire.SERVED;
        } else {
          w.queued = true;
          w.cancelled = false;
          waiters.addLast(w);
          pending++;
          if (needsConnect()) {
            if (owner.reserveSlot()) {
              open++;
              connecting++;
              connect = true;
            } else {
              blockedByGlobalCap = true;
            }
          }
          outcome = connect ? Acquire.CONNECTING : Acquire.WAITING;
        }
      }
    }
    closeAll(dead);
    if (dead != null) {
      owner.slotFreed(this);
    }
    if (outcome == Acquire.FAILED) {
      w.onFailure(owner.closedException());
    } else if (served != null) {
      w.onConnection(served);
    } else if (connect) {
      startConnect(w);
    } else if (blockedByGlobalCap) {
      owner.makeRoomFor(this);
    }
    return outcome;
  }

  /** Gives back one exchange slot of {@code c}; a reusable connection goes to the next waiter or idles. */
  void release(C c, boolean reusable, long now) {
    Waiter<C> next = null;
    boolean close = false;
    synchronized (this) {
      if (c.removed) {
        return;
      }
      c.active--;
      if (!reusable || !c.isOpen() || owner.isClosed()) {
        close = true;
      } else if ((next = pollWaiter()) != null) {
        // Hand-off: the slot passes straight to the next waiter, the counts do not change.
        c.active++;
        c.uses++;
      } else if (c.active == 0 && !owner.keepIdle()) {
        // Over the keep-alive budget (or expiry 0): not worth keeping.
        close = true;
      } else {
        if (c.active == 0) {
          inUse--;
          idle++;
          owner.idleChanged(1);
          c.idleSince = now;
        }
        if (!c.inAvailable) {
          c.inAvailable = true;
          available.addFirst(c);
        }
      }
      if (close) {
        if (c.inAvailable) {
          available.remove(c); // only a multi-exchange connection with other exchanges left
          c.inAvailable = false;
        }
        removeInUse(c);
      }
    }
    if (close) {
      c.close();
      owner.slotFreed(this);
    } else if (next != null) {
      next.onConnection(c);
    }
  }

  /** {@code c} leaves the pool open, its one exchange slot with it; see {@link ConnectionPool#detach}. */
  void detach(C c) {
    synchronized (this) {
      if (c.removed) {
        return;
      }
      c.active--;
      if (c.inAvailable) {
        available.remove(c);
        c.inAvailable = false;
      }
      removeInUse(c);
    }
    owner.slotFreed(this);
  }

  /** A connection finished connecting: it serves the first waiters, or idles. */
  void connected(C c, long now) {
    owner.connecting.decrementAndGet();
    List<Waiter<C>> served = null;
    boolean close = false;
    synchronized (this) {
      connecting--;
      c.pool = this;
      assumedCapacity = Math.max(1, c.capacity());
      capacityLearned = true;
      if (owner.isClosed() || !c.isOpen()) {
        close = true;
      } else {
        Waiter<C> w;
        while (c.active < c.capacity() && (w = pollWaiter()) != null) {
          c.active++;
          c.uses++;
          served = add(served, w);
        }
        if (c.active > 0) {
          inUse++;
        } else if (owner.keepIdle()) {
          // Everyone it was meant for gave up; keep it for the next request.
          idle++;
          owner.idleChanged(1);
          c.idleSince = now;
        } else {
          close = true;
        }
        if (!close && c.active < c.capacity()) {
          c.inAvailable = true;
          available.addFirst(c);
        }
      }
      if (close) {
        c.removed = true;
        open--;
        owner.freeSlot();
      }
    }
    if (close) {
      c.close();
      owner.slotFreed(this);
    } else if (served != null) {
      for (Waiter<C> w : served) {
        w.onConnection(c);
      }
    }
    // It carries fewer than assumed (an https origin that chose HTTP/1.1): the rest need connections.
    while (tryConnectForWaiter()) {
      // one connect per turn, until the waiters are covered or a cap is hit
    }
  }

  /** Connecting failed: the first waiter gets the error, and the slot may go to the next one. */
  void connectFailed(Throwable cause) {
    owner.connecting.decrementAndGet();
    Waiter<C> w;
    synchronized (this) {
      connecting--;
      open--;
      owner.freeSlot();
      w = pollWaiter();
    }
    if (w != null) {
      w.onFailure(cause);
    }
    owner.slotFreed(this);
  }

  /** The peer closed {@code c}. An idle connection leaves the pool; one in use is released by its holder. */
  void closed(C c) {
    synchronized (this) {
      if (c.removed || c.active > 0) {
        return;
      }
      if (c.inAvailable) {
        available.remove(c); // O(idle), but only when a peer closes an idle connection
        c.inAvailable = false;
      }
      removeIdle(c);
    }
    owner.slotFreed(this);
  }

  /** Removes {@code w} if it is still in line. */
  boolean cancel(Waiter<C> w) {
    synchronized (this) {
      if (!w.queued || w.cancelled) {
        return false;
      }
      w.cancelled = true;
      pending--;
      // Keep the queue from filling with cancelled entries when nothing is ever released.
      if (waiters.size() > 2 * pending + 16) {
        waiters.removeIf(x -> x.cancelled);
      }
      return true;
    }
  }

  /**
   * Asks the connector for a connection. A connector that throws instead of reporting through
   * {@link ConnectionPool#connectFailed} (an address it cannot even form) fails the same way, so the
   * counters taken for the connect are given back.
   */
  private void startConnect(Waiter<C> w) {
    owner.connecting.incrementAndGet();
    try {
      owner.connector().connect(origin, w);
    } catch (RuntimeException e) {
      connectFailed(e);
    }
  }

  /** Starts a connect for the first waiter if one is missing and the caps allow it now. */
  boolean tryConnectForWaiter() {
    Waiter<C> w;
    synchronized (this) {
      if (owner.isClosed() || !needsConnect() || !owner.reserveSlot()) {
        return false;
      }
      open++;
      connecting++;
      w = firstWaiter();
    }
    startConnect(w);
    return true;
  }

  /** Whether a waiter here would connect if a global slot were free. */
  synchronized boolean wantsSlot() {
    return needsConnect();
  }

  /** Closes the oldest idle connection to free a global slot for another origin. */
  boolean evictOldestIdle() {
    C victim;
    synchronized (this) {
      victim = available.peekLast();
      if (victim == null || victim.active > 0) {
        return false;
      }
      available.pollLast();
      victim.inAvailable = false;
      removeIdle(victim);
    }
    victim.close();
    return true;
  }

  /**
   * Closes idle connections past their expiry.
   *
   * @return nanoseconds until the next one expires, or {@code -1} if none is idle
   */
  long closeExpired(long now) {
    List<C> dead = null;
    long next = -1;
    synchronized (this) {
      C c;
      while ((c = available.peekLast()) != null && c.active == 0) {
        if (owner.isExpired(c, now) || !c.isOpen()) {
          available.pollLast();
          c.inAvailable = false;
          removeIdle(c);
          dead = add(dead, c);
        } else {
          next = Math.max(0, owner.expiresAt(c) - now);
          break;
        }
      }
    }
    closeAll(dead);
    if (dead != null) {
      owner.slotFreed(this);
    }
    return next;
  }

  /** Closes every idle connection and fails every waiter (the pool is closing). */
  void shutdown(Throwable cause) {
    List<C> dead = null;
    List<Waiter<C>> failed = null;
    synchronized (this) {
      C c;
      while ((c = available.pollFirst()) != null) {
        c.inAvailable = false;
        if (c.active == 0) {
          removeIdle(c);
          dead = add(dead, c);
        }
      }
      Waiter<C> w;
      while ((w = pollWaiter()) != null) {
        failed = add(failed, w);
      }
    }
    closeAll(dead);
    if (failed != null) {
      for (Waiter<C> w : failed) {
        w.onFailure(cause);
      }
    }
  }

  synchronized ClientStats.OriginStats stats() {
    return new ClientStats.OriginStats(open, idle, inUse, pending);
  }

  // ---- helpers, called with the monitor held ----

  private void take(C c) {
    if (c.active == 0) {
      idle--;
      inUse++;
      owner.idleChanged(-1);
    }
    c.active++;
    c.uses++;
    if (c.active >= c.capacity() && c.inAvailable) {
      // For capacity 1 the connection is at the top of the stack: O(1).
      if (available.peekFirst() == c) {
        available.pollFirst();
      } else {
        available.remove(c);
      }
      c.inAvailable = false;
    }
  }

  private void removeIdle(C c) {
    c.removed = true;
    open--;
    idle--;
    owner.idleChanged(-1);
    owner.freeSlot();
  }

  private void removeInUse(C c) {
    c.removed = true;
    open--;
    inUse--;
    owner.freeSlot();
  }

  private Waiter<C> pollWaiter() {
    Waiter<C> w;
    while ((w = waiters.pollFirst()) != null) {
      w.queued = false;
      if (!w.cancelled) {
        pending--;
        return w;
      }
    }
    return null;
  }

  private Waiter<C> firstWaiter() {
    for (Waiter<C> w : waiters) {
      if (!w.cancelled) {
        return w;
      }
    }
    return null;
  }

  private static <T> List<T> add(List<T> list, T item) {
    if (list == null) {
      list = new ArrayList<>(2);
    }
    list.add(item);
    return list;
  }

  private static <C extends PooledConnection> void closeAll(List<C> dead) {
    if (dead != null) {
      for (C c : dead) {
        c.close();
      }
    }
  }

  /** How {@link #acquire} went. */
  enum Acquire {
    /** The waiter already has its connection. */
    SERVED,
    /** The waiter is in line and a new connection is being opened. */
    CONNECTING,
    /** The waiter is in line behind a full pool. */
    WAITING,
    /** The pool is closed; the waiter was failed. */
    FAILED
  }
}
