package dev.strand.internal.pool;

import java.util.ArrayList;
import java.util.List;

/** Fakes for pool tests: connections that only remember being closed, a connector that records calls. */
final class PoolFakes {
  private PoolFakes() {}

  static final class FakeConnection extends PooledConnection {
    final String name;
    boolean open = true;
    int closes;
    private final int capacity;

    FakeConnection(String name) {
      this(name, 1);
    }

    FakeConnection(String name, int capacity) {
      this.name = name;
      this.capacity = capacity;
    }

    @Override
    public int capacity() {
      return capacity;
    }

    @Override
    public boolean isOpen() {
      return open;
    }

    @Override
    public void close() {
      open = false;
      closes++;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** Records connect requests; the test completes them with {@link ConnectionPool#connected}. */
  static final class FakeConnector implements Connector<FakeConnection> {
    final List<Origin> connects = new ArrayList<>();
    /** Thrown from {@link #connect} instead of reporting, when set. */
    RuntimeException throwOnConnect;

    @Override
    public void connect(Origin origin, Waiter<FakeConnection> forWaiter) {
      connects.add(origin);
      if (throwOnConnect != null) {
        throw throwOnConnect;
      }
    }
  }

  /** Remembers what it was given. */
  static final class FakeWaiter extends Waiter<FakeConnection> {
    final String name;
    FakeConnection connection;
    Throwable failure;

    FakeWaiter(String name) {
      this.name = name;
    }

    @Override
    protected void onConnection(FakeConnection c) {
      if (connection != null || failure != null) {
        throw new AssertionError(name + " called back twice");
      }
      connection = c;
    }

    @Override
    protected void onFailure(Throwable cause) {
      if (connection != null || failure != null) {
        throw new AssertionError(name + " called back twice");
      }
      failure = cause;
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
