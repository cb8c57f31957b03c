/**
 * strand-flink's internals shared between {@code dev.strand.flink} and {@code dev.strand.flink.table}: public for
 * Java's sake, not API, and free to change in any release.
 */
package dev.strand.flink.internal;
