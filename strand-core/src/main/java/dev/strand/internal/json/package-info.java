/**
 * JSON bodies: the codec that {@code dev.strand.Json} finds (Jackson 2 on the class path, or the
 * codec {@code strand-jackson} registers for Jackson 3). Used by the public API only.
 */
package dev.strand.internal.json;
