/**
 * Text helpers of the public API: a charset from {@code Content-Type} (with the decoding of a body
 * as text), and a request rendered as a {@code curl} command line. No I/O; used by {@code dev.strand}.
 */
package dev.strand.internal.text;
