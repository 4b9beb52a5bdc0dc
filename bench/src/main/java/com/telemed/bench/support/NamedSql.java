package com.telemed.bench.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * A service's SQL as the service hands it to Hibernate, with named parameters ({@code :name}), run
 * here through plain JDBC: each {@code :name} becomes {@code ?} and is bound by name, so a benchmark
 * EXPLAINs the very text the service runs. A {@code ::} cast and text between single quotes are left
 * alone.
 */
public final class NamedSql {

    private final String sql;
    private final List<String> parameters;

    private NamedSql(String sql, List<String> parameters) {
        this.sql = sql;
        this.parameters = parameters;
    }

    public static NamedSql of(String named) {
        StringBuilder jdbc = new StringBuilder(named.length());
        List<String> parameters = new ArrayList<>();
        boolean quoted = false;
        for (int i = 0; i < named.length(); i++) {
            char c = named.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            }
            boolean parameter = !quoted && c == ':' && i + 1 < named.length()
                    && Character.isJavaIdentifierStart(named.charAt(i + 1)) && (i == 0 || named.charAt(i - 1) != ':');
            if (!parameter) {
                jdbc.append(c);
                continue;
            }
            int end = i + 1;
            while (end < named.length() && Character.isJavaIdentifierPart(named.charAt(end))) {
                end++;
            }
            parameters.add(named.substring(i + 1, end));
            jdbc.append('?');
            i = end - 1;
        }
        return new NamedSql(jdbc.toString(), List.copyOf(parameters));
    }

    /** The JDBC text: a {@code ?} for each occurrence of a name. */
    public String jdbc() {
        return sql;
    }

    /** The name of each {@code ?}, in order (a name used twice appears twice). */
    public List<String> parameters() {
        return parameters;
    }

    /** The text for SQL's own PREPARE: the distinct names as $1, $2, ... in the order they first appear. */
    public String positional() {
        List<String> distinct = new ArrayList<>(new LinkedHashSet<>(parameters));
        StringBuilder out = new StringBuilder();
        int next = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '?') {
                out.append('$').append(distinct.indexOf(parameters.get(next++)) + 1);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** The names not in {@code values} (none, for a statement that can be run with them). */
    public List<String> unbound(Map<String, ?> values) {
        return new ArrayList<>(new LinkedHashSet<>(parameters.stream().filter(name -> !values.containsKey(name)).toList()));
    }

    /** Prepares {@code prefix} + this statement with every parameter bound by name (setObject: String, Integer, Long...). */
    public PreparedStatement prepare(Connection db, String prefix, Map<String, ?> values) throws Exception {
        List<String> unbound = unbound(values);
        if (!unbound.isEmpty()) {
            throw new IllegalArgumentException("no value for " + unbound + " in " + sql);
        }
        PreparedStatement statement = db.prepareStatement(prefix + sql);
        try {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setObject(i + 1, values.get(parameters.get(i)));
            }
            return statement;
        } catch (Exception e) {
            statement.close();
            throw e;
        }
    }

    @Override
    public String toString() {
        return sql;
    }
}
