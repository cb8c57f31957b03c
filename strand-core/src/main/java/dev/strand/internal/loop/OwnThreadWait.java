package dev.strand.internal.loop;

import io.netty.channel.IoHandler;
import io.netty.channel.epoll.EpollEventArray;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.Native;
import io.netty.channel.unix.FileDescriptor;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How a {@link CallerDrivenLoop}'s own thread waits while no one needs it to drive: until woken, for at most a
 * time, and, where the transport allows, until the loop has I/O to handle.
 *
 * <p>The last matters for an async call that finds the loop idle: it writes its request on its own thread and
 * returns, and someone must then wait for the response. If the own thread already waits in the kernel for the
 * loop's I/O, the caller need not wake it, and the response wakes it instead: one thread woken per request
 * rather than two. Only epoll allows it here, by a second epoll set that watches Netty's ({@link EpollWatch}): an
 * epoll descriptor is readable while it has events ready, without anyone taking them.
 */
abstract sealed class OwnThreadWait {

  private static final System.Logger LOG = System.getLogger(OwnThreadWait.class.getName());

  /** The wait for {@code handler}'s loop: watching its I/O on epoll when Netty's internals allow, else parking. */
  static OwnThreadWait of(IoHandler handler) {
    if (handler instanceof EpollIoHandler epoll && EpollWatch.INTERNALS != null) {
      try {
        return new EpollWatch(epoll);
      } catch (IOException | ReflectiveOperationException | RuntimeException e) { // Runtime: Netty's ChannelException
        LOG.log(System.Logger.Level.DEBUG, "the own thread parks rather than watch epoll: " + e);
      }
    }
    return new Park();
  }

  /** Whether {@link #await} can watch the loop's I/O. */
  abstract boolean watchesIo();

  /**
   * Waits for at most {@code nanos}, until {@link #wake} (before or during the wait), or, if {@code io} and
   * {@link #watchesIo()}, until the loop has I/O ready. May return early for no reason.
   */
  abstract void await(long nanos, boolean io);

  /** Ends the own thread's current or next {@link #await}. */
  abstract void wake(Thread own);

  /** Releases what the wait holds; only the own thread calls it, as it ends. */
  void close() {
  }

  /** Parks: nothing but {@link #wake} and time end the wait. */
  private static final class Park extends OwnThreadWait {
    @Override
    boolean watchesIo() {
      return false;
    }

    @Override
    void await(long nanos, boolean io) {
      LockSupport.parkNanos(this, nanos);
    }

    @Override
    void wake(Thread own) {
      LockSupport.unpark(own);
    }
  }

  /**
   * Two epoll sets of our own: one watches an eventfd (woken) and Netty's epoll descriptor (its I/O ready),
   * the other the eventfd only, for a wait that must not end on I/O (another thread handles it). Netty's epoll
   * descriptor, its event array and its millisecond {@code epoll_wait} are not public: they are reached once,
   * by reflection, and without them the loop parks as on NIO.
   */
  private static final class EpollWatch extends OwnThreadWait {
    private static final Internals INTERNALS = Internals.find();

    private final FileDescriptor ioOrWake;
    private final FileDescriptor wakeOnly;
    private final FileDescriptor wakeFd;
    private final EpollEventArray events;
    private final ReentrantLock closing = new ReentrantLock();
    private boolean closed;
    EpollWatch(EpollIoHandler handler) throws IOException, ReflectiveOperationException {
      FileDescriptor netty = (FileDescriptor) INTERNALS.epollFd.get(handler);
      events = INTERNALS.newEvents.newInstance(2);
      wakeFd = Native.newEventFd();
      ioOrWake = Native.newEpollCreate();
      wakeOnly = Native.newEpollCreate();
      try {
        Native.epollCtlAdd(ioOrWake.intValue(), wakeFd.intValue(), Native.EPOLLIN);
        Native.epollCtlAdd(ioOrWake.intValue(), netty.intValue(), Native.EPOLLIN);
        Native.epollCtlAdd(wakeOnly.intValue(), wakeFd.intValue(), Native.EPOLLIN);
      } catch (IOException | RuntimeException e) { // the loop parks instead: nothing of ours stays open
        close();
        throw e;
      }
    }

    @Override
    boolean watchesIo() {
      return true;
    }

    @Override
    void await(long nanos, boolean io) {
      int millis = (int) Math.min(Integer.MAX_VALUE, (nanos + 999_999) / 1_000_000);
      try {
        // Only this thread reads the eventfd, so it is read only when it was seen readable: a wake written
        // later keeps it readable, and the next wait returns at once. Which of the two is ready is in the
        // events the wait returned: asking the wake-only set again would cost a system call a wake-up.
        int ready = epollWait(io ? ioOrWake : wakeOnly, millis);
        if (ready > 0 && (!io || woken(ready))) {
          Native.eventFdRead(wakeFd.intValue());
        }
      } catch (Throwable t) { // epoll_wait fails on a bad descriptor only: a bug, and parking keeps the loop going
        LOG.log(System.Logger.Level.ERROR, "epoll_wait of the loop's own thread failed; it parks", t);
        LockSupport.parkNanos(this, nanos);
      }
    }

    private int epollWait(FileDescriptor set, int millis) throws Throwable {
      return (int) INTERNALS.epollWait.invokeExact(set, events, millis);
    }

    /** Whether the eventfd is among the {@code ready} events the last wait returned. */
    private boolean woken(int ready) throws Throwable {
      for (int i = 0; i < ready; i++) {
        if ((int) INTERNALS.eventFd.invokeExact(events, i) == wakeFd.intValue()) {
          return true;
        }
      }
      return false;
    }

    @Override
    void wake(Thread own) {
      // Under the lock: a descriptor closed and its number reused would take the write.
      closing.lock();
      try {
        if (!closed) {
          Native.eventFdWrite(wakeFd.intValue(), 1L);
        }
      } finally {
        closing.unlock();
      }
    }

    @Override
    void close() {
      closing.lock();
      try {
        closed = true;
      } finally {
        closing.unlock();
      }
      try {
        ioOrWake.close();
        wakeOnly.close();
        wakeFd.close();
        INTERNALS.freeEvents.invoke(events);
      } catch (IOException | ReflectiveOperationException e) {
        LOG.log(System.Logger.Level.DEBUG, "the own thread's epoll sets were not all released: " + e);
      }
    }

    /** Netty's package-private epoll pieces, or null where this Netty lacks them. */
    private record Internals(Field epollFd, Constructor<EpollEventArray> newEvents, Method freeEvents,
        MethodHandle epollWait, MethodHandle eventFd) {
      static Internals find() {
        try {
          Field fd = EpollIoHandler.class.getDeclaredField("epollFd");
          Constructor<EpollEventArray> events = EpollEventArray.class.getDeclaredConstructor(int.class);
          Method free = EpollEventArray.class.getDeclaredMethod("free");
          Method wait = Native.class.getDeclaredMethod("epollWait", FileDescriptor.class, EpollEventArray.class,
              int.class);
          Method eventFd = EpollEventArray.class.getDeclaredMethod("fd", int.class); // the descriptor in its data
          fd.setAccessible(true);
          events.setAccessible(true);
          free.setAccessible(true);
          wait.setAccessible(true);
          eventFd.setAccessible(true);
          return new Internals(fd, events, free, MethodHandles.lookup().unreflect(wait),
              MethodHandles.lookup().unreflect(eventFd));
        } catch (ReflectiveOperationException | RuntimeException e) { // RuntimeException: InaccessibleObject
          LOG.log(System.Logger.Level.DEBUG, "Netty's epoll internals are out of reach; own threads park: " + e);
          return null;
        }
      }
    }
  }
}
