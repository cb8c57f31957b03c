/**
 * The {@code strand-http} connector for Flink SQL and the Table API: a lookup source for
 * {@code FOR SYSTEM_TIME AS OF} joins (URL templates, projection, metadata columns) and a table sink,
 * found by {@link dev.strand.flink.table.StrandHttpTableFactory} and configured by
 * {@link dev.strand.flink.table.StrandHttpOptions}.
 */
package dev.strand.flink.table;
