package com.telemed.common.retention;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a service prunes: the rows of {@code table} whose {@code timestampColumn} is older than
 * {@code keep}, and that match {@code condition} (SQL, or null for every old row). A service
 * produces one bean per table ({@code @Produces @Singleton RetentionRule}); {@link RetentionJob}
 * prunes them all. Names and the condition come from code, never from configuration: they are
 * written into the statement. Only {@code keep} is configured (each service's own setting).
 *
 * @param table           the table, a plain lower-case name
 * @param keyColumn       a unique column the batch's rows are picked by (the primary key)
 * @param timestampColumn the column that says how old a row is; it needs an index (the delete
 *                        reads the oldest rows by it)
 * @param condition       rows that must stay whatever their age are left out by it
 *                        ({@code status <> 'retrying'}); null: none
 * @param keep            how long a row is kept; positive
 */
public record RetentionRule(String table, String keyColumn, String timestampColumn, String condition, Duration keep) {

    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]*");

    public RetentionRule {
        name(table);
        name(keyColumn);
        name(timestampColumn);
        Objects.requireNonNull(keep, "keep");
        if (keep.isNegative() || keep.isZero()) {
            throw new IllegalArgumentException("The retention of " + table + " must be positive, not " + keep);
        }
    }

    /** Every row older than {@code keep}. */
    public static RetentionRule of(String table, String keyColumn, String timestampColumn, Duration keep) {
        return new RetentionRule(table, keyColumn, timestampColumn, null, keep);
    }

    /** Only the old rows that match {@code condition}. */
    public RetentionRule where(String sqlCondition) {
        return new RetentionRule(table, keyColumn, timestampColumn, sqlCondition, keep);
    }

    private static void name(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("Not a plain SQL name: " + name);
        }
    }
}
