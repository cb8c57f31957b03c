package dev.strand.internal.dns;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The DNS wire format (RFC 1035) as far as a stub resolver needs it: one question out, the A and AAAA
 * records of the answer section back. Every read is bounds-checked and a compressed name may jump at
 * most {@value #MAX_JUMPS} times, so no answer, however malformed, reads past its end or loops.
 */
public final class DnsMessage {
  public static final int TYPE_A = 1;
  public static final int TYPE_AAAA = 28;
  private static final int CLASS_IN = 1;
  private static final int MAX_JUMPS = 64;
  private static final int MAX_NAME = 255;

  private DnsMessage() {}

  /** What an answer said: the addresses found (maybe none) and the smallest TTL among them, in seconds. */
  public record Answer(List<InetAddress> addresses, long ttlSeconds, int rcode) {
    /** NXDOMAIN: the name does not exist. */
    public boolean nameDoesNotExist() {
      return rcode == 3;
    }
  }

  /**
   * A recursive query for {@code type} records of {@code host}, with ID 0 as RFC 8484 asks (so that HTTP
   * caches can share answers).
   *
   * @throws UnknownHostException if {@code host} is not a valid DNS name
   */
  public static byte[] query(String host, int type) throws UnknownHostException {
    byte[] name = host.getBytes(StandardCharsets.US_ASCII);
    byte[] q = new byte[12 + name.length + 2 + 4];
    q[2] = 0x01; // RD: recursion desired
    q[5] = 1; // QDCOUNT
    int at = 12;
    int labelStart = 0;
    for (int i = 0; i <= name.length; i++) {
      if (i == name.length || name[i] == '.') {
        int len = i - labelStart;
        if (len == 0 || len > 63) {
          throw new UnknownHostException(host + " is not a valid DNS name (empty or over-long label)");
        }
        q[at++] = (byte) len;
        System.arraycopy(name, labelStart, q, at, len);
        at += len;
        labelStart = i + 1;
      }
    }
    if (at - 12 + 1 > MAX_NAME) {
      throw new UnknownHostException(host + " is not a valid DNS name (longer than 255 bytes)");
    }
    q[at++] = 0;
    q[at++] = (byte) (type >> 8);
    q[at++] = (byte) type;
    q[at++] = 0;
    q[at] = CLASS_IN;
    return q;
  }

  /**
   * The A and AAAA records of {@code message}, an answer to a query with ID 0.
   *
   * @throws UnknownHostException naming the fault if the message is not a well-formed DNS response
   */
  public static Answer parse(byte[] message) throws UnknownHostException {
    Reader r = new Reader(message);
    int id = r.u16();
    int flags = r.u16();
    if (id != 0) {
      throw r.malformed("its ID is " + id + ", not the query's 0");
    }
    if ((flags & 0x8000) == 0) {
      throw r.malformed("it is a query, not a response");
    }
    if ((flags & 0x0200) != 0) {
      throw r.malformed("it is truncated (TC set)");
    }
    int rcode = flags & 0xF;
    int questions = r.u16();
    int answers = r.u16();
    r.u16(); // authority records
    r.u16(); // additional records
    for (int i = 0; i < questions; i++) {
      r.skipName();
      r.skip(4);
    }
    List<InetAddress> addresses = new ArrayList<>();
    long ttl = Long.MAX_VALUE;
    for (int i = 0; i < answers; i++) {
      r.skipName();
      int type = r.u16();
      int cls = r.u16();
      long recordTtl = r.u32();
      int length = r.u16();
      byte[] data = r.bytes(length);
      if (cls != CLASS_IN || (type != TYPE_A && type != TYPE_AAAA)) {
        continue; // CNAMEs and the like: the addresses they lead to follow in the same section
      }
      if (type == TYPE_A ? length != 4 : length != 16) {
        throw r.malformed("an " + (type == TYPE_A ? "A" : "AAAA") + " record of " + length + " bytes");
      }
      addresses.add(InetAddress.getByAddress(data));
      ttl = Math.min(ttl, recordTtl);
    }
    return new Answer(List.copyOf(addresses), addresses.isEmpty() ? 0 : ttl, rcode);
  }

  /** A cursor over a message that fails, naming the offset, on any read past its end. */
  private static final class Reader {
    private final byte[] m;
    private int at;

    Reader(byte[] m) {
      this.m = m;
    }

    int u16() throws UnknownHostException {
      need(2);
      int v = (m[at] & 0xFF) << 8 | (m[at + 1] & 0xFF);
      at += 2;
      return v;
    }

    long u32() throws UnknownHostException {
      return (long) u16() << 16 | u16();
    }

    byte[] bytes(int n) throws UnknownHostException {
      need(n);
      byte[] b = new byte[n];
      System.arraycopy(m, at, b, 0, n);
      at += n;
      return b;
    }

    void skip(int n) throws UnknownHostException {
      need(n);
      at += n;
    }

    /** Skips a name at the cursor, following (and checking) compression pointers without moving past the first. */
    void skipName() throws UnknownHostException {
      int p = at;
      int end = -1;
      int jumps = 0;
      int length = 0;
      while (true) {
        if (p >= m.length) {
          throw malformed("a name runs past the end (byte " + p + ")");
        }
        int len = m[p] & 0xFF;
        if ((len & 0xC0) == 0xC0) {
          if (p + 1 >= m.length) {
            throw malformed("a compression pointer is cut short (byte " + p + ")");
          }
          if (++jumps > MAX_JUMPS) {
            throw malformed("a name's compression pointers loop");
          }
          if (end < 0) {
            end = p + 2;
          }
          p = (len & 0x3F) << 8 | (m[p + 1] & 0xFF);
        } else if ((len & 0xC0) != 0) {
          throw malformed("a label of unknown type 0x" + Integer.toHexString(len) + " (byte " + p + ")");
        } else if (len == 0) {
          at = end >= 0 ? end : p + 1;
          return;
        } else {
          length += len + 1;
          if (length > MAX_NAME) {
            throw malformed("a name longer than 255 bytes");
          }
          p += len + 1;
        }
      }
    }

    private void need(int n) throws UnknownHostException {
      if (n > m.length - at) {
        throw malformed("it ends at byte " + m.length + " where " + n + " more were due (byte " + at + ")");
      }
    }

    UnknownHostException malformed(String why) {
      return new UnknownHostException("malformed DNS answer: " + why);
    }
  }
}
