package dev.strand.internal.loop;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.AbstractScheduledEventExecutor;
import io.netty.util.concurrent.DefaultPromise;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * An event loop that the thread waiting on it may run. A blocking call that finds the loop of its connection
 * idle (no thread runs it, no exchange is in flight on it) writes its request on its own thread and waits for
 * the response in the kernel itself, so a sequential call costs no wake-up of another thread in either
 * direction (the leader/follower pattern); an async call that finds it idle writes its request and lets go
 * ({@link #start}). A call that finds the loop busy hands its work to the loop as on any Netty loop, unless no
 * thread runs it, its own thread waits for its I/O and the call's connection is its alone: then it writes its
 * request and lets go too.
 *
 * <p>At most one thread runs the loop at a time, its <em>driver</em>: {@link #inEventLoop(Thread)} is true
 * for that thread only, so Netty's channels, promises and timers see one thread at a time, and a hand-over
 * (an atomic exchange of {@link #driver}) orders everything one driver did before the next one starts.
 *
 * <p>The loop's own thread drives whenever anything waits on the loop and no caller is driving: exchanges in
 * flight ({@link #began}/{@link #ended}), tasks queued from other threads, connections being set up
 * ({@code busy}), timers falling due. When nothing waits, it lets go of the loop, so that the next call finds it
 * free, and waits ({@link OwnThreadWait}): on epoll in the kernel for the loop's I/O, without holding the loop,
 * so that the response to an async call that wrote on the idle loop wakes it and the caller need not; on NIO,
 * or while a caller runs the loop and takes its I/O, until woken. Either way it looks at the loop at least
 * every {@link #IDLE_LOOK_NANOS}. This is what makes the fast path possible: a loop whose own thread sat in
 * Netty's {@code epoll_wait} would have to be woken before anyone else could run it.
 *
 * <p>A virtual thread waiting in {@code epoll_wait} holds its carrier, and carriers are as few as cores. So a
 * virtual thread runs the loop only while a carrier is to spare for the others: while fewer virtual threads than
 * carriers are in a blocking call ({@link #callAndWait}), itself included, and then for at most
 * {@link #VIRTUAL_DRIVE_NANOS}. With more, a blocking call on a virtual thread writes its request on an idle
 * loop as an async call does and parks for its response: on one carrier (a one-CPU container) a virtual thread
 * waiting in the kernel would stop every other one meanwhile, and with several the callers would take turns
 * waiting for a carrier that one of them holds idle.
 *
 * <p>Only for I/O handlers that may change threads ({@link IoHandlerFactory#isChangingThreadSupported()}: epoll
 * and NIO); io_uring's ring belongs to one thread.
 */
public final class CallerDrivenLoop extends AbstractScheduledEventExecutor implements IoEventLoop {
  /**
   * How long a virtual thread may run the loop in the kernel before handing it over. Long enough for a
   * round trip on a local network; short enough that a slow server pins no carrier for long.
   */
  static final long VIRTUAL_DRIVE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  /** How often the loop's own thread looks at an idle loop: when a peer's close of an idle connection is seen. */
  static final long IDLE_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  /** The carriers of virtual threads: the JDK's default scheduler's parallelism. */
  private static final int CARRIERS =
      Integer.getInteger("jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors());

  /** Virtual threads in a blocking call now, from its start to its return ({@link #callAndWait}). */
  private static final AtomicInteger VIRTUAL_CALLERS = new AtomicInteger();

  /** The loop whose I/O this thread is handling now, if any: {@link #whenReadsEnd}. */
  private static final ThreadLocal<CallerDrivenLoop> IN_READS = new ThreadLocal<>();

  /** The loop a blocking caller claimed while starting its call, per thread: {@link #callAndDrive}, {@link #start}. */
  private static final ThreadLocal<Claim> CLAIM = new ThreadLocal<>();

  private static final Runnable WAKE = () -> {};
  private static final System.Logger LOG = System.getLogger(CallerDrivenLoop.class.getName());

  private static final int RUNNING = 0;
  private static final int SHUTTING_DOWN = 1;
  private static final int TERMINATED = 2;

  private final IoEventLoopGroup parent;
  private final IoHandler handler;
  private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  /** What waits for the end of this pass's reads ({@link #whenReadsEnd}); the driver's only. */
  private final ArrayDeque<Runnable> afterReads = new ArrayDeque<>();
  /** The thread running the loop now, or null. */
  private final AtomicReference<Thread> driver = new AtomicReference<>();
  /** Exchanges in flight on this loop's connections. */
  private final AtomicInteger inFlight = new AtomicInteger();
  /** Other work the loop must be driven for (connections being set up, WebSockets), shared by a group's loops. */
  private final BooleanSupplier busy;
  private final AtomicInteger state = new AtomicInteger(RUNNING);
  private final Promise<Void> termination = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);
  /** The loop's own thread, once it started (it looks for work before it first sleeps). */
  private volatile Thread own;
  /** How the own thread waits while no one needs it. */
  private final OwnThreadWait ownWait;
  /** The own thread waits, or is about to, for the loop's I/O ({@link OwnThreadWait#await}). */
  private volatile boolean ownWatchesIo;
  /** A wake-up of the own thread is written and the own thread has not returned from its wait since. */
  private final AtomicBoolean ownWakeUnseen = new AtomicBoolean();
  /** How often another thread woke the own thread: a wake-up is what the loop exists to spare. */
  private final LongAdder ownWakes = new LongAdder();
  /** When the waiting own thread looks again, in the {@link #ticker()}'s time. */
  private volatile long ownWakesAt;
  private boolean initialized;

  CallerDrivenLoop(IoEventLoopGroup parent, Executor threads, IoHandlerFactory factory, BooleanSupplier busy) {
    super(parent);
    this.parent = parent;
    this.busy = busy;
    this.handler = factory.newHandler(this);
    this.ownWait = OwnThreadWait.of(handler);
    threads.execute(this::runOwn);
  }

  /** A group of these loops; {@code busy} tells them of work outside exchanges (see the class comment). */
  public static final class Group extends MultiThreadIoEventLoopGroup {
    public Group(int threads, ThreadFactory threadFactory, IoHandlerFactory factory, BooleanSupplier busy) {
      super(threads, threadFactory, factory, busy);
    }

    @Override
    protected IoEventLoop newChild(Executor threads, IoHandlerFactory factory, Object... args) {
      return new CallerDrivenLoop(this, threads, factory, (BooleanSupplier) args[0]);
    }
  }

  // ---- the caller's side ----

  /**
   * A blocking call: starts it with {@code start} on this thread, runs the loop here while it may (see the
   * class comment) and then waits for the call's future with {@code await}.
   */
  public static <F extends CompletableFuture<?>, R> R callAndWait(Supplier<F> start, Function<F, R> await) {
    if (!Thread.currentThread().isVirtual()) {
      return await.apply(callAndDrive(start, true));
    }
    boolean carrierToSpare = VIRTUAL_CALLERS.incrementAndGet() < CARRIERS;
    try {
      return await.apply(callAndDrive(start, carrierToSpare));
    } finally {
      VIRTUAL_CALLERS.decrementAndGet();
    }
  }

  /**
   * Starts a call with {@code start} on this thread and, if {@code mayDrive} and the call's exchange landed on
   * an idle caller-driven loop, runs that loop here until the returned future is done (a platform thread) or
   * for at most {@link #VIRTUAL_DRIVE_NANOS} while a carrier is to spare (a virtual thread). The future may
   * still be pending on return.
   */
  private static <F extends CompletableFuture<?>> F callAndDrive(Supplier<F> start, boolean mayDrive) {
    if (!mayDrive) {
      return start.get();
    }
    Claim claim = new Claim();
    Claim outer = CLAIM.get();
    CLAIM.set(claim);
    F future = null;
    try {
      future = start.get();
    } finally {
      CLAIM.set(outer);
      if (claim.loop != null) {
        claim.loop.driveUntil(future);
      }
    }
    return future;
  }

  /** Runs the loop this thread claimed until {@code future} is done, its time is up, or the loop stops. */
  private void driveUntil(CompletableFuture<?> future) {
    Thread me = Thread.currentThread();
    try {
      if (future == null) {
        runTasks();
        return;
      }
      future.whenComplete((v, e) -> {
        if (!inEventLoop()) {
          execute(WAKE); // completed elsewhere: the driver may be waiting in the kernel
        }
      });
      boolean virtual = me.isVirtual();
      long end = virtual ? System.nanoTime() + VIRTUAL_DRIVE_NANOS : Long.MAX_VALUE;
      while (!future.isDone() && state.get() == RUNNING && !me.isInterrupted()
          && (!virtual || VIRTUAL_CALLERS.get() < CARRIERS)) {
        long left = end == Long.MAX_VALUE ? Long.MAX_VALUE : end - System.nanoTime();
        if (left <= 0) {
          break;
        }
        pass(true, left);
      }
    } finally {
      release();
    }
  }

  /**
   * Starts an exchange's work on {@code loop} from a thread outside it. When {@code loop} is caller-driven
   * and idle (no thread runs it, no exchange is in flight on it), {@code task} runs here and now: the request
   * goes out without waking another thread, and the response wakes the loop's own thread, waiting in the kernel
   * for the loop's I/O (on NIO this one wakes it as it lets go, and it is back in the kernel by the time the
   * response comes). A blocking caller ({@link #callAndDrive}) keeps the loop, to run it while it waits.
   *
   * <p>With exchanges in flight, an exchange on a connection of its own ({@code ownConnection}: HTTP/1.1) still
   * runs here when no thread runs the loop and the own thread waits for the loop's I/O, unless its caller would
   * keep the loop: letting go then wakes no one either. Otherwise the task is queued for the loop's driver, as
   * on any event loop.
   */
  public static void start(EventLoop loop, Runnable task, boolean ownConnection) {
    if (loop instanceof CallerDrivenLoop l && l.driver.get() == null) {
      Thread me = Thread.currentThread();
      Claim claim = CLAIM.get();
      boolean keep = claim != null && claim.loop == null;
      // With exchanges in flight, only a caller that lets go at once (a virtual thread running the loop for
      // others would hold a carrier their wake-ups need), only while the own thread watches the I/O (so letting
      // go wakes no one), and not on a multiplexed connection (requests queued there leave in one write).
      boolean mayRun = l.inFlight.get() == 0 || ownConnection && !keep && l.ownWatchesIo;
      if (mayRun && l.driver.compareAndSet(null, me)) {
        try {
          safeExecute(task);
          l.runTasks();
        } finally {
          if (keep) {
            claim.loop = l;
          } else {
            l.release();
          }
        }
        return;
      }
    }
    loop.execute(task);
  }

  /**
   * Runs {@code task} when the reads of this loop's current pass end, if this thread is handling them now, and
   * answers whether it will; otherwise does nothing and answers false. A pass that reads many responses then
   * hands them to their callers together, after its reads: a caller's thread (a virtual thread's carrier, an
   * async caller's) woken once for the lot finds the rest of them done too, rather than being woken once a
   * response while the loop reads on.
   */
  public static boolean whenReadsEnd(Runnable task) {
    CallerDrivenLoop l = IN_READS.get();
    if (l == null) {
      return false;
    }
    l.afterReads.add(task);
    return true;
  }

  /** What a blocking caller claimed while its call started. */
  private static final class Claim {
    CallerDrivenLoop loop;
  }

  // ---- exchanges in flight ----

  /** An exchange started on {@code loop}: it must be driven until {@link #ended}. */
  public static void began(EventLoop loop) {
    if (loop instanceof CallerDrivenLoop l) {
      l.inFlight.incrementAndGet();
    }
  }

  /** An exchange on {@code loop} ended. */
  public static void ended(EventLoop loop) {
    if (loop instanceof CallerDrivenLoop l) {
      l.inFlight.decrementAndGet();
    }
  }

  // ---- the loop's own thread ----

  private void runOwn() {
    Thread me = Thread.currentThread();
    own = me;
    while (true) {
      long sleep = IDLE_LOOK_NANOS;
      boolean drove = driver.compareAndSet(null, me);
      if (drove) {
        try {
          boolean first = true;
          do {
            pass(!first, Long.MAX_VALUE);
            first = false;
            if (state.get() != RUNNING) {
              shutDown();
              return;
            }
          } while (wanted());
          long next = nextScheduledTaskDeadlineNanos();
          if (next != -1) {
            sleep = Math.max(0, Math.min(sleep, next - ticker().nanoTime()));
          }
          ownWakesAt = ticker().nanoTime() + sleep;
        } catch (Throwable t) { // the handler and tasks catch their own: this is a bug of ours
          LOG.log(System.Logger.Level.ERROR, "event loop " + me.getName() + " failed; it goes on", t);
          continue;
        } finally {
          driver.set(null);
        }
      }
      // Having let go, it may wait for the loop's I/O: then an async caller that writes on the idle loop and
      // lets go need not wake it (release). Not when another thread drives: that one takes the I/O.
      ownWatchesIo = drove && ownWait.watchesIo();
      if (driver.get() == null && wanted()) {
        ownWatchesIo = false;
        continue; // work came as it let go, or as the driver let go after we failed to take over
      }
      if (sleep > 0) {
        ownWait.await(sleep, ownWatchesIo);
      }
      ownWakeUnseen.set(false); // before it looks for work: a wake-up after this must be written again
      ownWatchesIo = false;
    }
  }

  /** Whether anything waits on the loop now. */
  private boolean wanted() {
    return !tasks.isEmpty() || inFlight.get() > 0 || state.get() != RUNNING || busy.getAsBoolean();
  }

  /**
   * A caller lets go of the loop; the own thread takes it if anything waits, or if a timer falls due before it
   * would look.
   */
  private void release() {
    long next = nextScheduledTaskDeadlineNanos();
    driver.set(null);
    if (wanted() && !awaitedByOwnThread() || next != -1 && next - ownWakesAt < 0) {
      unparkOwn();
    }
  }

  /**
   * Whether all that waits on the loop is its exchanges in flight and the own thread waits in the kernel for
   * their I/O: the response wakes it, no one else need.
   */
  private boolean awaitedByOwnThread() {
    return ownWatchesIo && tasks.isEmpty() && state.get() == RUNNING && !busy.getAsBoolean();
  }

  // ---- one pass: I/O, then due timers and queued tasks ----

  private final class Context implements IoHandlerContext {
    boolean mayBlock;
    long maxWaitNanos;

    @Override
    public boolean canBlock() {
      return mayBlock && tasks.isEmpty() && !hasScheduledTasks();
    }

    @Override
    public long delayNanos(long currentTimeNanos) { // System.nanoTime(), not the ticker's time
      return Math.min(CallerDrivenLoop.this.delayNanos(currentTimeNanos, Long.MAX_VALUE), maxWaitNanos);
    }

    @Override
    public long deadlineNanos() { // the ticker's time, or -1 for none
      long next = nextScheduledTaskDeadlineNanos();
      if (maxWaitNanos == Long.MAX_VALUE) {
        return next;
      }
      long limit = ticker().nanoTime() + maxWaitNanos;
      return next == -1 || next - limit > 0 ? limit : next;
    }
  }

  private final Context context = new Context();

  private void pass(boolean mayBlock, long maxWaitNanos) {
    if (!initialized) {
      initialized = true;
      handler.initialize();
    }
    context.mayBlock = mayBlock;
    context.maxWaitNanos = maxWaitNanos;
    IN_READS.set(this);
    try {
      handler.run(context);
    } finally {
      IN_READS.remove();
      Runnable task;
      while ((task = afterReads.poll()) != null) {
        safeExecute(task);
      }
    }
    runTasks();
  }

  private void runTasks() {
    long now = ticker().nanoTime();
    Runnable due;
    while ((due = pollScheduledTask(now)) != null) {
      safeExecute(due);
    }
    Runnable task;
    while ((task = tasks.poll()) != null) {
      safeExecute(task);
    }
  }

  /** Runs what is left, destroys the handler and terminates. */
  private void shutDown() {
    cancelScheduledTasks();
    runTasks();
    handler.prepareToDestroy();
    runTasks();
    handler.destroy();
    runTasks();
    ownWait.close();
    state.set(TERMINATED);
    termination.setSuccess(null);
  }

  // ---- EventExecutor ----

  @Override
  public boolean inEventLoop(Thread thread) {
    return driver.get() == thread;
  }

  @Override
  public void execute(Runnable task) {
    if (state.get() == TERMINATED) {
      throw new RejectedExecutionException("event loop terminated");
    }
    tasks.add(task);
    if (driver.get() != Thread.currentThread()) {
      wake();
    }
  }

  /** Someone must run the queued task: the driver (it may wait in the kernel), or the own thread. */
  private void wake() {
    if (driver.get() != null) {
      handler.wakeup();
    }
    if (driver.get() == null) {
      unparkOwn();
    }
  }

  /**
   * Wakes the own thread, unless a wake-up is already written that it has not seen yet: work queued by several
   * threads, or by one thread several times, while the own thread sleeps costs one wake-up, not one each.
   */
  private void unparkOwn() {
    Thread t = own;
    if (t != null && !ownWakeUnseen.get() && !ownWakeUnseen.getAndSet(true)) {
      ownWakes.increment();
      ownWait.wake(t);
    }
  }

  /** How often another thread has woken the loop's own thread so far. */
  long ownWakes() {
    return ownWakes.sum();
  }

  @Override
  public IoEventLoopGroup parent() {
    return parent;
  }

  @Override
  public CallerDrivenLoop next() {
    return this;
  }

  @Override
  public ChannelFuture register(Channel channel) {
    return register(new DefaultChannelPromise(channel, this));
  }

  @Override
  public ChannelFuture register(ChannelPromise promise) {
    promise.channel().unsafe().register(this, promise);
    return promise;
  }

  @Deprecated
  @Override
  public ChannelFuture register(Channel channel, ChannelPromise promise) {
    channel.unsafe().register(this, promise);
    return promise;
  }

  @Override
  public Future<IoRegistration> register(IoHandle handle) {
    Promise<IoRegistration> promise = newPromise();
    Runnable register = () -> {
      try {
        promise.setSuccess(handler.register(handle));
      } catch (Exception e) {
        promise.setFailure(e);
      }
    };
    if (inEventLoop()) {
      register.run();
    } else {
      execute(register);
    }
    return promise;
  }

  @Override
  public boolean isCompatible(Class<? extends IoHandle> handleType) {
    return handler.isCompatible(handleType);
  }

  @Override
  public boolean isIoType(Class<? extends io.netty.channel.IoHandler> handlerType) {
    return handler.getClass().equals(handlerType);
  }

  // ---- lifecycle ----

  @Override
  public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
    if (state.compareAndSet(RUNNING, SHUTTING_DOWN)) {
      try {
        execute(WAKE);
      } catch (RejectedExecutionException e) {
        // The own thread, awake (on the I/O of the channels closed just before), saw the new state first and
        // terminated: there is no one left to wake.
      }
    }
    return termination;
  }

  @Override
  public Future<?> terminationFuture() {
    return termination;
  }

  @Deprecated
  @Override
  public void shutdown() {
    shutdownGracefully(0, 0, TimeUnit.SECONDS);
  }

  @Override
  public boolean isShuttingDown() {
    return state.get() != RUNNING;
  }

  @Override
  public boolean isShutdown() {
    return state.get() != RUNNING;
  }

  @Override
  public boolean isTerminated() {
    return state.get() == TERMINATED;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return termination.await(timeout, unit);
  }
}
