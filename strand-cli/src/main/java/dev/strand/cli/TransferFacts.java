package dev.strand.cli;

import dev.strand.EventListener;
import dev.strand.Request;
import dev.strand.ResponseHead;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import javax.net.ssl.SSLSession;

/**
 * What {@code -w} and {@code --trace-ascii} report of a transfer, gathered from the client's events: when
 * each phase ended, where it connected, what was sent and received. Events come from I/O threads; the
 * fields are read once the transfer is over.
 */
final class TransferFacts implements EventListener {
  volatile long startNanos;
  volatile long dnsNanos;
  volatile long connectNanos;
  volatile long tlsNanos;
  volatile long firstByteNanos;
  volatile long endNanos;
  volatile InetSocketAddress remote;
  volatile int connects;
  volatile int redirects;
  volatile long uploaded;
  volatile long downloaded;
  volatile ResponseHead last;
  volatile Request lastRequest;
  volatile String redirectUrl;
  volatile String fileName;

  /** Starts over for another attempt (a retry is a new transfer to curl). */
  void reset(long now) {
    startNanos = now;
    dnsNanos = connectNanos = tlsNanos = firstByteNanos = endNanos = 0;
    remote = null;
    connects = redirects = 0;
    uploaded = downloaded = 0;
    last = null;
    lastRequest = null;
    redirectUrl = null;
  }

  @Override
  public void dnsEnd(Call call, long nanos, String host, List<java.net.InetAddress> addresses) {
    dnsNanos = nanos;
  }

  @Override
  public void connectEnd(Call call, long nanos, SocketAddress address) {
    connectNanos = nanos;
    connects++;
    if (address instanceof InetSocketAddress a) {
      remote = a;
    }
  }

  @Override
  public void tlsEnd(Call call, long nanos, SSLSession session, String alpn) {
    tlsNanos = nanos;
  }

  @Override
  public void requestHeadersSent(Call call, long nanos, int streamId) {
    if (lastRequest == null) {
      lastRequest = call.request();
    }
  }

  @Override
  public void requestBodySent(Call call, long nanos, long bytes) {
    if (bytes > 0) {
      uploaded += bytes;
    }
  }

  @Override
  public void responseHeadersReceived(Call call, long nanos, ResponseHead head) {
    if (firstByteNanos == 0 || redirects > 0) {
      firstByteNanos = nanos;
    }
    last = head;
    String location = head.headers().first("Location");
    redirectUrl = head.status() / 100 == 3 && location != null ? call.request().url().resolve(location).toString() : null;
  }

  @Override
  public void redirect(Call call, long nanos, ResponseHead response, Request next) {
    redirects++;
    lastRequest = next; // the call's request stays the first hop's
  }

  /** Seconds from the start to {@code nanos} (0 when the phase never happened), as curl's -w prints them. */
  String seconds(long nanos) {
    return nanos == 0 ? "0.000000" : String.format(java.util.Locale.ROOT, "%.6f", (nanos - startNanos) / 1e9);
  }
}
