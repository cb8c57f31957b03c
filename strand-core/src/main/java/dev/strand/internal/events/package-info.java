/**
 * Call events: {@link dev.strand.internal.events.CallEvents} reports one call's phases to the
 * user's {@code EventListener}, guarded so that a listener that throws or blocks cannot hurt the call.
 * Used from the client's links and from the engine.
 */
package dev.strand.internal.events;
