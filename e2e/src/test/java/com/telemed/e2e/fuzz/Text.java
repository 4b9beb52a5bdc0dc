package com.telemed.e2e.fuzz;

/** Strings as failure reports show them: ASCII only, invisible characters escaped, long ones cut. */
final class Text {

    private static final int SHOWN = 60;

    private Text() {
    }

    /** A quoted, escaped form; over {@value #SHOWN} characters, the start and the length. */
    static String abbreviate(String value) {
        if (value == null) {
            return "null";
        }
        String shown = value.length() > SHOWN ? value.substring(0, SHOWN) : value;
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7f) {
                out.append(c);
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        out.append('"');
        if (value.length() > SHOWN) {
            out.append("...(").append(value.length()).append(" chars)");
        }
        return out.toString();
    }

    /** An unquoted token (a number, a query string), cut like {@link #abbreviate}. */
    static String abbreviateRaw(String value) {
        String quoted = abbreviate(value);
        int end = quoted.lastIndexOf('"');
        return quoted.substring(1, end) + quoted.substring(end + 1);
    }
}
