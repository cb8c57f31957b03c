package dev.strand.internal.connect;

import dev.strand.internal.loop.CallerDrivenLoop;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioDomainSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringDatagramChannel;
import io.netty.channel.uring.IoUringDomainSocketChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The event-loop threads and the matching socket types: native epoll when available, else NIO; io_uring instead of
 * epoll when the system property {@value #PROPERTY} asks for it and the kernel and class path have it.
 *
 * <p>All of a group's channel types (TCP, UDP for QUIC, Unix domain) come from the one transport: Netty 4.2 only
 * registers a channel with a loop whose {@link io.netty.channel.IoHandler} is its own kind, so an io_uring group
 * cannot serve an epoll or NIO channel. io_uring has all three.
 */
public final class EventLoops {
  /**
   * The system property that picks the transport, read each time a transport is built: {@code io_uring},
   * {@code epoll} (the default) or {@code nio}. A transport the kernel or class path lacks falls back silently,
   * io_uring to epoll, epoll to NIO; {@link dev.strand.ClientStats#transport()} says which one runs. A builder's
   * {@code preferNative(false)} still means NIO whatever this says.
   */
  public static final String PROPERTY = "strand.io";

  /**
   * The system property that says who runs the event loops: {@code caller} (the default), a blocking call
   * runs its connection's loop while it waits when the loop is idle ({@link CallerDrivenLoop}); {@code loop},
   * only the loops' own threads do, as on any Netty loop.
   */
  public static final String DRIVE_PROPERTY = "strand.io.drive";

  public final MultiThreadIoEventLoopGroup group;
  final Class<? extends SocketChannel> channelType;
  /** For QUIC. */
  public final Class<? extends DatagramChannel> datagramType;
  /** The channel for Unix domain sockets: the native transport's, or NIO's (JDK 16's {@code UnixDomainSocketAddress}). */
  final Class<? extends Channel> domainChannelType;
  /** {@code "io_uring"}, {@code "epoll"} or {@code "nio"}, as {@link dev.strand.ClientStats#transport()} reports it. */
  public final String name;
  /** The channels open on these loops. */
  private final Set<Channel> open = ConcurrentHashMap.newKeySet();
  /** Work outside exchanges that needs caller-driven loops run by their own threads. */
  private final Busy busy;

  private EventLoops(MultiThreadIoEventLoopGroup group, Busy busy, Class<? extends SocketChannel> channelType,
      Class<? extends DatagramChannel> datagramType, Class<? extends Channel> domainChannelType, String name) {
    this.group = group;
    this.busy = busy;
    this.channelType = channelType;
    this.datagramType = datagramType;
    this.domainChannelType = domainChannelType;
    this.name = name;
  }

  /**
   * @param preferNative false forces NIO
   * @throws IllegalArgumentException if {@value #PROPERTY} is set to something other than {@code io_uring},
   *     {@code epoll} or {@code nio}: a typo must not quietly measure the default
   */
  public static EventLoops create(int threads, boolean preferNative) {
    String requested = System.getProperty(PROPERTY, "epoll");
    if (!requested.equals("io_uring") && !requested.equals("epoll") && !requested.equals("nio")) {
      throw new IllegalArgumentException("-D" + PROPERTY + "=" + requested + ": expected io_uring, epoll or nio");
    }
    boolean uring = preferNative && requested.equals("io_uring") && Uring.available();
    boolean epoll = !uring && preferNative && !requested.equals("nio") && Epoll.isAvailable();
    IoHandlerFactory factory = uring ? Uring.factory() : epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    // Daemon threads: a transport the user forgot to close must not keep the JVM alive.
    DefaultThreadFactory threadFactory = new DefaultThreadFactory("strand-io", true);
    Busy busy = new Busy();
    if (uring) {
      return Uring.loops(new MultiThreadIoEventLoopGroup(threads, threadFactory, factory), busy);
    }
    MultiThreadIoEventLoopGroup group = callerDriven()
        ? new CallerDrivenLoop.Group(threads, threadFactory, factory, busy)
        : new MultiThreadIoEventLoopGroup(threads, threadFactory, factory);
    return epoll
        ? new EventLoops(group, busy, EpollSocketChannel.class, EpollDatagramChannel.class,
            EpollDomainSocketChannel.class, "epoll")
        : new EventLoops(group, busy, NioSocketChannel.class, NioDatagramChannel.class,
            NioDomainSocketChannel.class, "nio");
  }

  /** Work outside exchanges: the pool's connects ({@link #busyWhile}) and long-lived channels ({@link #held}). */
  private static final class Busy implements BooleanSupplier {
    volatile BooleanSupplier pool = () -> false;
    final AtomicInteger held = new AtomicInteger();

    @Override
    public boolean getAsBoolean() {
      return held.get() > 0 || pool.getAsBoolean();
    }
  }

  /**
   * Whether blocking callers may run the loops ({@link CallerDrivenLoop}): unless the system property
   * {@value #DRIVE_PROPERTY} is {@code loop}, for epoll and NIO (io_uring's ring belongs to one thread).
   */
  private static boolean callerDriven() {
    String drive = System.getProperty(DRIVE_PROPERTY, "caller");
    if (!drive.equals("caller") && !drive.equals("loop")) {
      throw new IllegalArgumentException("-D" + DRIVE_PROPERTY + "=" + drive + ": expected caller or loop");
    }
    return drive.equals("caller");
  }

  /** The pool's connects, and anything else {@code busy} reports, keep caller-driven loops run by their own threads. */
  public void busyWhile(BooleanSupplier pool) {
    busy.pool = pool;
  }

  /** A long-lived channel outside the pool opened ({@code +1}) or closed ({@code -1}): see {@link #busyWhile}. */
  public void held(int change) {
    busy.held.addAndGet(change);
  }

  /**
   * Everything that names an io_uring class, so that only choosing io_uring loads them: the jars are optional
   * dependencies, and without them this class must still load.
   */
  private static final class Uring {
    static boolean available() {
      try {
        return IoUring.isAvailable();
      } catch (LinkageError e) { // NoClassDefFoundError: not on the class path, or its module not resolved
        return false;
      }
    }

    static IoHandlerFactory factory() {
      return IoUringIoHandler.newFactory();
    }

    static EventLoops loops(MultiThreadIoEventLoopGroup group, Busy busy) {
      return new EventLoops(group, busy, IoUringSocketChannel.class, IoUringDatagramChannel.class,
          IoUringDomainSocketChannel.class, "io_uring");
    }
  }

  /** The address of a Unix domain socket, in the form this group's channels take. */
  SocketAddress domainAddress(Path socket) {
    // Netty's native transports take their own address type; NIO takes the JDK's.
    return domainChannelType == NioDomainSocketChannel.class
        ? UnixDomainSocketAddress.of(socket)
        : new DomainSocketAddress(socket.toString());
  }

  /** Keeps {@code ch} in view until it closes, so that {@link #shutdown} closes it first. */
  public void opened(Channel ch) {
    if (open.add(ch)) {
      ch.closeFuture().addListener(f -> open.remove(ch));
    }
  }

  /**
   * Closes every channel while the loops still run, then stops the loops. Netty closes the channels of a loop
   * that stops too, but fires their inactive event (which fails the exchange in flight) in a task that a
   * terminating loop may never run: the caller's future would then wait forever.
   */
  public void shutdown() {
    boolean outside = !group.next().inEventLoop();
    List<ChannelFuture> closing = new ArrayList<>();
    for (Channel ch : open) {
      closing.add(ch.close());
    }
    if (outside) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      for (ChannelFuture f : closing) {
        f.awaitUninterruptibly(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      }
    }
    var done = group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    if (outside) {
      done.awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
  }
}
