package dev.strand.internal.http2;

/**
 * Sizes a connection's HTTP/2 receive windows to its bandwidth-delay product, as Go's and gRPC's BDP estimators
 * do: when data arrives and no sample is running, a PING goes out; the bytes that arrive before its ACK are what
 * the link delivered in one round trip. A sample that filled two thirds of the stream window, at a bandwidth no
 * lower than the best seen, doubles the window to twice the sample (at most {@link #MAX_STREAM_WINDOW}): a
 * download on a long fat link is then no longer capped at window ÷ RTT. On loopback a round trip carries little,
 * so the windows stay where they started.
 *
 * <p>The windows bound memory too: the server may send no more than the connection window ahead of what the
 * reader consumed, so a connection holds at most {@link #MAX_CONNECTION_WINDOW} of unread data.
 *
 * <p>Plain code, the clock passed in; confined to the connection's event loop.
 */
final class WindowTuner {
  /** The most one stream may have in flight: 16 MiB fills 1 Gbit/s at a 130 ms round trip. */
  static final int MAX_STREAM_WINDOW = 16 * 1024 * 1024;
  /** The most a connection may have in flight, over all its streams; also its bound on unread data. */
  static final int MAX_CONNECTION_WINDOW = 32 * 1024 * 1024;

  private int streamWindow;
  private int connectionWindow;
  private boolean sampling;
  private long sample;
  private long sentNanos;
  private double bestBandwidth;

  WindowTuner(int streamWindow, int connectionWindow) {
    this.streamWindow = streamWindow;
    this.connectionWindow = connectionWindow;
  }

  /** Counts {@code bytes} read; true when a PING should go out now to start a sample. */
  boolean onRead(int bytes, long nowNanos) {
    if (streamWindow >= MAX_STREAM_WINDOW) {
      return false;
    }
    if (!sampling) {
      sampling = true;
      sample = bytes;
      sentNanos = nowNanos;
      return true;
    }
    sample += bytes;
    return false;
  }

  /** The PING's ACK: the sample ends. Returns the new stream window, or 0 when it stays as it is. */
  int onPingAck(long nowNanos) {
    if (!sampling) {
      return 0;
    }
    sampling = false;
    double bandwidth = sample / (double) Math.max(1, nowNanos - sentNanos);
    if (sample * 3 < streamWindow * 2L || bandwidth < bestBandwidth) {
      bestBandwidth = Math.max(bestBandwidth, bandwidth);
      return 0;
    }
    bestBandwidth = bandwidth;
    int grown = (int) Math.min(MAX_STREAM_WINDOW, sample * 2);
    if (grown <= streamWindow) {
      return 0;
    }
    streamWindow = grown;
    return grown;
  }

  /** How much to raise the connection window for the current stream window: twice it, within the bound. */
  int connectionIncrement() {
    int wanted = (int) Math.min(MAX_CONNECTION_WINDOW, 2L * streamWindow);
    int increment = Math.max(0, wanted - connectionWindow);
    connectionWindow += increment;
    return increment;
  }

  int streamWindow() {
    return streamWindow;
  }
}
