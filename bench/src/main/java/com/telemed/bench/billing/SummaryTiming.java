package com.telemed.bench.billing;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.telemed.bench.support.GatewayApi;
import com.telemed.bench.support.Percentiles;
import com.telemed.bench.support.ProcessCpu;
import com.telemed.bench.support.Results;
import com.telemed.bench.support.ThreadCpu;
import com.telemed.testkit.trust.TestServiceProofs;
import java.io.InputStream;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The measurement of {@code GET /v1/billing} (no period: the current month) for the partner under test: sequential
 * calls by one client on one kept-alive HTTP/1.1 connection, after warm-up calls, through the gateway with the
 * partner's API key, then direct to billing-service for context (the partner header and a service proof, as the
 * gateway sends them). Each call is timed to its answer's headers and to its last byte; every answer must be
 * byte for byte the first, which is checked against what was published ({@link #check}).
 */
final class SummaryTiming {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @JsonIgnoreProperties(ignoreUnknown = true)
    record Answer(Period period, BigDecimal ratePerMember, List<Member> billableMembers, int uniqueMemberCount,
                  BigDecimal totalAmount) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record Period(String startDate, String endDate, String label) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record Member(String memberId, String memberName, String memberEmail, String billingStartDate, int billingAnniversaryDay) {
    }

    /** One target's timed calls: to the headers and to the last byte, in microseconds; answers unlike the first. */
    record Figures(String target, List<Long> headers, List<Long> total, int different, String cpu, String threads) {
        String line() {
            return String.format("%-30s %4d %9.0f %9.0f %9.0f %9.0f %12.0f%s", target, total.size(), ms(total, 50), ms(total, 95),
                    ms(total, 100), ms(headers, 50), ms(headers, 95), different == 0 ? "" : "   " + different + " ANSWERS DIFFERED");
        }

        /** Kept as {@code <prefix>.p50Ms}, {@code .p95Ms} (with {@code p95Role}), {@code .maxMs}, {@code .headersP50Ms}, {@code .headersP95Ms}. */
        void record(Results results, String prefix, String label, Results.Role p95Role) {
            results.record(prefix + ".p50Ms", ms(total, 50), "ms", label + ", p50");
            results.add(p95Role, prefix + ".p95Ms", ms(total, 95), "ms", label + ", p95");
            results.record(prefix + ".maxMs", ms(total, 100), "ms", label + ", max");
            results.record(prefix + ".headersP50Ms", ms(headers, 50), "ms", label + ", to the headers, p50");
            results.record(prefix + ".headersP95Ms", ms(headers, 95), "ms", label + ", to the headers, p95");
            results.record(prefix + ".differentAnswers", different, "answers", label + ", answers unlike the first");
        }

        private static double ms(List<Long> micros, double p) {
            return Percentiles.percentile(micros, p) / 1000.0;
        }
    }

    private final BillingData data;
    private final BigDecimal rate;
    private final ProcessCpu cpu;
    private final long billingPid;

    SummaryTiming(BillingData data, BigDecimal rate, ProcessCpu cpu, long billingPid) {
        this.data = data;
        this.rate = rate;
        this.cpu = cpu;
        this.billingPid = billingPid;
    }

    /** Times both targets; returns the answer's period end (for the EXPLAIN), or null when the answer failed its checks. */
    /** Kept as {@code summary.*}; the headline: p95 through the gateway. */
    Instant run(Results results, URI gateway, URI billing, String apiKey, int calls, int warmUp) throws Exception {
        URI gatewayUri = gateway.resolve("/v1/billing");
        Supplier<HttpRequest> viaGateway = () -> HttpRequest.newBuilder(gatewayUri).header("x-api-key", apiKey).timeout(TIMEOUT)
                .GET().build();
        URI directUri = billing.resolve("/v1/billing");
        Supplier<HttpRequest> direct = () -> {
            HttpRequest.Builder builder = HttpRequest.newBuilder(directUri).header(TestServiceProofs.PARTNER_HEADER, data.partnerId)
                    .timeout(TIMEOUT).GET();
            // Signed per call: a proof is fresh for a bounded skew only.
            TestServiceProofs.headers(TestServiceProofs.DEVELOPMENT_KEY, "GET", TestServiceProofs.target(directUri), data.partnerId)
                    .forEach(builder::header);
            return builder.build();
        };

        long t = System.nanoTime();
        HttpResponse<byte[]> first = HTTP.send(viaGateway.get(), HttpResponse.BodyHandlers.ofByteArray());
        double firstMs = (System.nanoTime() - t) / 1e6;
        if (first.statusCode() != 200) {
            throw new IllegalStateException("GET /v1/billing through the gateway answered " + first.statusCode() + " "
                    + new String(first.body(), 0, Math.min(500, first.body().length)));
        }
        byte[] body = first.body();
        Answer answer = GatewayApi.JSON.readValue(body, Answer.class);
        List<String> problems = check(answer);
        System.out.printf("first call through the gateway: %.0f ms, %,d bytes (%,.0f bytes per member; Content-Encoding %s),"
                        + " period %s (%s .. %s), %,d billable members, totalAmount %s at ratePerMember %s; billingStartDate from %s"
                        + " to %s%n", firstMs, body.length, body.length / (double) Math.max(1, answer.billableMembers().size()),
                first.headers().firstValue("content-encoding").orElse("none"), answer.period().label(),
                answer.period().startDate(), answer.period().endDate(), answer.uniqueMemberCount(),
                answer.totalAmount().toPlainString(), answer.ratePerMember().toPlainString(),
                answer.billableMembers().isEmpty() ? "-" : answer.billableMembers().get(0).billingStartDate(),
                answer.billableMembers().isEmpty() ? "-" : answer.billableMembers().get(answer.billableMembers().size() - 1).billingStartDate());
        System.out.println("   checks: " + (problems.isEmpty()
                ? String.format("uniqueMemberCount = %,d = the members listed = exactly the partner under test's billable members"
                        + " (the other partners' members and the unapproved absent), totalAmount = %s x %,d, billingStartDate"
                        + " strictly increasing from the earliest approval published to the latest, every billingAnniversaryDay"
                        + " its start's UTC day, every member named", data.billable, rate.toPlainString(), data.billable)
                : "FAILED: " + String.join("; ", problems)));

        System.out.printf("%n%d warm-up calls, then %d timed sequential calls per target (one client, one connection); every"
                + " answer compared byte for byte with the first%n", warmUp, calls);
        System.out.printf("%-30s %4s %9s %9s %9s %9s %12s%n", "target", "n", "p50 ms", "p95 ms", "max ms", "hdr p50", "hdr p95 ms");
        List<Figures> all = new ArrayList<>();
        Figures gatewayFigures = time("gateway (x-api-key)", viaGateway, body, calls, warmUp);
        System.out.println(gatewayFigures.line());
        all.add(gatewayFigures);
        results.record("summary.firstCallMs", firstMs, "ms", "GET /v1/billing, first call through the gateway");
        results.record("summary.bytes", body.length, "bytes", "GET /v1/billing, answer size");
        gatewayFigures.record(results, "summary.gateway", "GET /v1/billing through the gateway, " + data.billable + " billable members",
                Results.Role.HEADLINE);
        HttpResponse<byte[]> probe = HTTP.send(direct.get(), HttpResponse.BodyHandlers.ofByteArray());
        if (probe.statusCode() == 200) {
            Figures directFigures = time("direct to billing-service", direct, body, calls, warmUp);
            System.out.println(directFigures.line());
            all.add(directFigures);
            directFigures.record(results, "summary.direct", "GET /v1/billing direct to billing-service", Results.Role.DETAIL);
        } else {
            System.out.println("direct to billing-service: answered " + probe.statusCode() + ", not timed");
        }
        System.out.println("(hdr: time to the answer's headers; the rest is the body's transfer)");
        for (Figures figures : all) {
            System.out.println("   CPU over the timed calls (per event = per call), " + figures.target() + ": " + figures.cpu());
            System.out.println("      billing-service by thread: " + figures.threads());
        }
        return problems.isEmpty() ? Instant.parse(answer.period().endDate()) : null;
    }

    private Figures time(String target, Supplier<HttpRequest> request, byte[] expected, int calls, int warmUp) throws Exception {
        int different = 0;
        for (int i = 0; i < warmUp; i++) {
            different += call(request.get(), expected, null, null) ? 0 : 1;
        }
        List<Long> headers = new ArrayList<>();
        List<Long> total = new ArrayList<>();
        ThreadCpu threads = ThreadCpu.start(billingPid);
        ProcessCpu.Snapshot before = cpu.snapshot();
        long started = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            different += call(request.get(), expected, headers, total) ? 0 : 1;
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        ProcessCpu.Snapshot after = cpu.snapshot();
        return new Figures(target, headers, total, different, cpu.describe(before, after, Math.max(1, calls))
                + String.format("%n      %s", LedgerCatchUp.quiet(before, after, seconds)), threads.describe(0.03));
    }

    /** One call, timed into the lists (when given); whether its answer was 200 and byte for byte the expected one. */
    private static boolean call(HttpRequest request, byte[] expected, List<Long> headers, List<Long> total) throws Exception {
        long start = System.nanoTime();
        HttpResponse<InputStream> response = HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream());
        long head = System.nanoTime();
        byte[] body;
        try (InputStream in = response.body()) {
            body = in.readAllBytes();
        }
        long end = System.nanoTime();
        if (headers != null) {
            headers.add((head - start) / 1000);
            total.add((end - start) / 1000);
        }
        return response.statusCode() == 200 && Arrays.equals(body, expected);
    }

    /** What the answer must be, from what was published; the problems found (none: a correct answer). */
    List<String> check(Answer answer) {
        List<String> problems = new ArrayList<>();
        List<Member> members = answer.billableMembers();
        if (answer.uniqueMemberCount() != data.billable || members.size() != data.billable) {
            problems.add(String.format("uniqueMemberCount %d, %d members listed, not %d", answer.uniqueMemberCount(), members.size(),
                    data.billable));
        }
        if (answer.ratePerMember() == null || answer.ratePerMember().compareTo(rate) != 0) {
            problems.add("ratePerMember " + answer.ratePerMember() + ", not " + rate);
        }
        BigDecimal total = rate.multiply(BigDecimal.valueOf(data.billable));
        if (answer.totalAmount() == null || answer.totalAmount().compareTo(total) != 0) {
            problems.add("totalAmount " + answer.totalAmount() + ", not " + total.toPlainString());
        }
        Set<String> expected = data.billableIds();
        Set<String> listed = new HashSet<>();
        Instant previous = null;
        int unordered = 0;
        int unnamed = 0;
        int wrongDay = 0;
        for (Member member : members) {
            listed.add(member.memberId());
            Instant start = Instant.parse(member.billingStartDate());
            if (previous != null && !start.isAfter(previous)) {
                unordered++;
            }
            previous = start;
            if (member.memberName() == null || member.memberName().isBlank() || "Unknown".equals(member.memberName())) {
                unnamed++;
            }
            if (member.billingAnniversaryDay() != LocalDate.ofInstant(start, ZoneOffset.UTC).getDayOfMonth()) {
                wrongDay++;
            }
        }
        if (!listed.equals(expected)) {
            Set<String> missing = new HashSet<>(expected);
            missing.removeAll(listed);
            Set<String> extra = new HashSet<>(listed);
            extra.removeAll(expected);
            problems.add(String.format("%d expected members missing, %d others listed", missing.size(), extra.size()));
        }
        if (unordered > 0) {
            problems.add(unordered + " members not after the one before them in billingStartDate");
        }
        if (!members.isEmpty()) {
            Instant firstStart = Instant.parse(members.get(0).billingStartDate());
            Instant lastStart = Instant.parse(members.get(members.size() - 1).billingStartDate());
            if (!firstStart.equals(data.firstApproval()) || !lastStart.equals(data.lastApproval())) {
                problems.add("billingStartDate from " + firstStart + " to " + lastStart + ", not " + data.firstApproval() + " to "
                        + data.lastApproval());
            }
        }
        if (unnamed > 0) {
            problems.add(unnamed + " members without a name");
        }
        if (wrongDay > 0) {
            problems.add(wrongDay + " billingAnniversaryDay not their start's day");
        }
        Instant now = Instant.now();
        if (answer.period() == null || Instant.parse(answer.period().startDate()).isAfter(now)
                || Instant.parse(answer.period().endDate()).isBefore(now)) {
            problems.add("the period " + answer.period() + " does not hold today");
        }
        return problems;
    }

    static Map<String, Object> settings(BigDecimal rate) {
        return Map.of("enabled", true, "cycle", "monthly", "ratePerMember", rate);
    }
}
