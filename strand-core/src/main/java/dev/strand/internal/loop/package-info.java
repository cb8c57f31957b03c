/**
 * Who runs the event loops: {@link dev.strand.internal.loop.CallerDrivenLoop}, a Netty event loop that a
 * blocking caller runs while it waits, when the loop is idle. Depends on Netty and on nothing else of ours.
 */
package dev.strand.internal.loop;
