package com.telemed.e2e.fuzz;

import com.telemed.testkit.platform.PlatformService;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One endpoint as the bad-input property sees it: how to reach it, whose database it may write,
 * the valid bodies (JSON, or {@link Multipart} uploads) and query parameters the generators start
 * from, what a successful write does to the fixture, and which of its body's fields are names
 * (which must hold no line-breaking character).
 */
public record Endpoint(String method, List<Object> path, Surface surface, PlatformService owner, List<Json> bodies,
                       List<Param> query, Set<Fixture.Part> invalidates, boolean waitsForDeliveries, boolean served,
                       boolean multipart, List<List<Object>> names, Set<String> keptWhenRefused) {

    /** The credential a surface takes. */
    public enum Surface {
        /** {@code x-api-key} of the fixture partner. */
        PARTNER,
        /** {@code x-service-publishable-key} of the fixture partner plus an allow-listed {@code Origin}. */
        EMBED,
        /** {@code x-ops-key}. */
        OPS
    }

    /** What a query value is, so the generators know which odd values fit. */
    public enum Kind { NUMBER, DATE, ENUM, TEXT, ID }

    /**
     * A query parameter and one valid value (text, already URL-encoded, or a {@link Slot}); a
     * required one is sent, with that value, by every call whose bad part is elsewhere.
     */
    public record Param(String name, Kind kind, Object valid, boolean required) {
    }

    private static final Pattern SLOT = Pattern.compile("\\{([A-Za-z0-9]+)}");

    static Endpoint of(String method, String template, Surface surface, PlatformService owner) {
        List<Object> path = new ArrayList<>();
        Matcher matcher = SLOT.matcher(template);
        int at = 0;
        while (matcher.find()) {
            path.add(template.substring(at, matcher.start()));
            path.add(Slot.named(matcher.group(1)));
            at = matcher.end();
        }
        path.add(template.substring(at));
        path.removeIf(""::equals);
        return new Endpoint(method, List.copyOf(path), surface, owner, List.of(), List.of(), Set.of(), false, true, false, List.of(), Set.of());
    }

    /** The valid bodies the generators mutate (JSON with {@code "$slot"} references). */
    Endpoint body(String... templates) {
        return new Endpoint(method, path, surface, owner, Arrays.stream(templates).map(Json::template).toList(), query,
                invalidates, waitsForDeliveries, served, multipart, names, keptWhenRefused);
    }

    /** Takes {@code multipart/form-data} with one part named {@code file} (an upload): its bodies are {@link Multipart}'s. */
    Endpoint upload() {
        return new Endpoint(method, path, surface, owner, bodies, query, invalidates, waitsForDeliveries, served, true, names,
                keptWhenRefused);
    }

    /**
     * The body's name fields ({@code "member.firstName"}: a path of keys): a name with a control
     * character or a line or paragraph separator is refused (platform-commons' {@code singleLine}),
     * never stored.
     */
    Endpoint names(String... dotted) {
        return new Endpoint(method, path, surface, owner, bodies, query, invalidates, waitsForDeliveries, served, multipart,
                Arrays.stream(dotted).map(name -> List.<Object>copyOf(Arrays.asList(name.split("\\.")))).toList(), keptWhenRefused);
    }

    Endpoint query(Param... params) {
        return new Endpoint(method, path, surface, owner, bodies, List.of(params), invalidates, waitsForDeliveries, served,
                multipart, names, keptWhenRefused);
    }

    /** After a successful call the fixture makes these anew (the request was decided, deleted, ...). */
    Endpoint invalidates(Fixture.Part first, Fixture.Part... rest) {
        return new Endpoint(method, path, surface, owner, bodies, query, EnumSet.of(first, rest), waitsForDeliveries, served,
                multipart, names, keptWhenRefused);
    }

    /** After a successful call the property waits until the webhook deliveries it started have ended. */
    Endpoint settlesDeliveries() {
        return new Endpoint(method, path, surface, owner, bodies, query, invalidates, true, served, multipart, names,
                keptWhenRefused);
    }

    /** Routed by the gateway, but no service serves it yet: the issue that adds it turns this off. */
    Endpoint notServedYet() {
        return new Endpoint(method, path, surface, owner, bodies, query, invalidates, waitsForDeliveries, false, multipart, names,
                keptWhenRefused);
    }

    /**
     * Tables of its owner's database that a refused call may still write, as the contract has it
     * (and the property then does not count as the refusal's write).
     */
    Endpoint keptWhenRefused(String... tables) {
        return new Endpoint(method, path, surface, owner, bodies, query, invalidates, waitsForDeliveries, served, multipart, names,
                Set.of(tables));
    }

    /** Whether the call takes a body: JSON bodies or uploads. */
    boolean takesBody() {
        return !bodies.isEmpty() || multipart;
    }

    static Param param(String name, Kind kind, Object valid) {
        return new Param(name, kind, valid, false);
    }

    /** A parameter without which the endpoint refuses every call. */
    static Param requiredParam(String name, Kind kind, Object valid) {
        return new Param(name, kind, valid, true);
    }

    /** The slots the path holds, in order. */
    List<Slot> pathSlots() {
        return path.stream().filter(Slot.class::isInstance).map(Slot.class::cast).toList();
    }

    /** {@code POST /v1/requests/{request}/cancel}. */
    public String label() {
        StringBuilder text = new StringBuilder(method).append(' ');
        path.forEach(part -> text.append(part instanceof Slot slot ? "{" + slot.label() + "}" : part));
        return text.toString();
    }

    @Override
    public String toString() {
        return label();
    }
}
