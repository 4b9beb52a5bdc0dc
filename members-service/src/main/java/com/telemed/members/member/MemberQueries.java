package com.telemed.members.member;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.telemed.common.concurrent.LogContextExecutor;
import com.telemed.common.error.ApiException;
import com.telemed.members.audit.MemberStatusAudit;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.Query;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.eclipse.microprofile.context.ManagedExecutor;

/**
 * Reads of one partner's members: one member, a batch of them, and the list (paging, search,
 * status filter). Every method takes the partner and never sees another's rows.
 */
@ApplicationScoped
public class MemberQueries {

    public static final String NOT_FOUND = "Member not found";
    public static final String NOT_THIS_PARTNERS = "Member does not belong to this partner";

    /**
     * Stored generated column {@code search_text} (V6): lower(first name), lower(last name) and
     * lower(email) joined by {@link #FIELD_SEPARATOR}. Both list indexes carry it: the partner's
     * list index ({@code members_partner_list_idx}, an index-only scan for common and short terms)
     * and its trigram index (rare terms); the planner picks one by the term's estimated matches.
     */
    static final String SEARCH_CONDITION = " AND search_text LIKE lower(:pattern)";

    /** Joins the fields in {@code search_text}; no match of a term without it can span two fields. */
    static final char FIELD_SEPARATOR = '\u001f';

    /**
     * The contract's condition field by field, added only for a term containing
     * {@link #FIELD_SEPARATOR}: such a term could otherwise match across two fields of
     * {@code search_text}. Reads the table, which is acceptable for a term no one types.
     */
    static final String FIELDS_CONDITION = " AND (lower(first_name) LIKE lower(:pattern)"
            + " OR lower(last_name) LIKE lower(:pattern) OR lower(email) LIKE lower(:pattern))";

    static final String ORDER_AND_PAGE = " ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset";

    /**
     * The filters of a list query, with named parameters partnerId, status and pattern. Public, as
     * {@link #pageQuery} and {@link #countQuery}: bench/ EXPLAINs the very SQL that {@link #list} runs.
     */
    public static String where(boolean byStatus, String search) {
        String searchCondition = search == null || search.isEmpty() ? ""
                : search.indexOf(FIELD_SEPARATOR) < 0 ? SEARCH_CONDITION : SEARCH_CONDITION + FIELDS_CONDITION;
        return " WHERE partner_id = :partnerId" + (byStatus ? " AND status = :status" : "") + searchCondition;
    }

    /**
     * A page of the list: the ids come from an index-only scan of {@code members_partner_list_idx}
     * (or the trigram index, for a rare term), which filters on the index tuples, and only the page's
     * rows are then read by primary key. Selecting the rows directly would read every skipped
     * non-matching row from the table (a deep page of a two-letter term: 240 ms against 20 ms).
     * The columns are {@link #detached}'s, so the rows are copied out without Hibernate ({@link #list}).
     */
    public static String pageQuery(String where) {
        return "SELECT " + PAGE_COLUMNS + " FROM (SELECT id, created_at FROM members" + where + ORDER_AND_PAGE + ") page"
                + " JOIN members m ON m.id = page.id AND m.partner_id = :partnerId"
                + " ORDER BY page.created_at DESC, page.id DESC";
    }

    /**
     * A search known to match at most this many of the partner's members takes {@link #rarePageQuery}: its matches
     * read through the trigram index and sorted cost at most about 1.5 ms, whatever the partner's size.
     */
    public static final long RARE_MATCHES = 500;

    /**
     * {@link #pageQuery} for a search known to be rare ({@link #RARE_MATCHES}): every match first, from the trigram
     * index (a materialized CTE, so the planner cannot walk the partner's list index instead), then sorted and paged.
     * The planner alone picks by its estimate of the term's matches, which comes from ANALYZE's sample: for an email
     * fragment such as {@code 4242} (42 of 100,000) one sample gave the trigram plan (0.8 ms), another the list
     * index filtered entry by entry until 20 matched (48,000 entries, 14 ms alone, 85 ms under load; issue 44).
     */
    public static String rarePageQuery(String where) {
        return "WITH hits AS MATERIALIZED (SELECT id, created_at FROM members" + where + ")"
                + " SELECT " + PAGE_COLUMNS + " FROM (SELECT id, created_at FROM hits" + ORDER_AND_PAGE + ") page"
                + " JOIN members m ON m.id = page.id AND m.partner_id = :partnerId"
                + " ORDER BY page.created_at DESC, page.id DESC";
    }

    /** The page's SQL for a search of {@code matches} known matches (null: not known yet) or none. */
    public static String pageQuery(String where, Long matches) {
        return matches != null && matches <= RARE_MATCHES ? rarePageQuery(where) : pageQuery(where);
    }

    /** The exact number of members matching {@code where} (same named parameters): for a search, which no counter covers. */
    public static String countQuery(String where) {
        return "SELECT count(*) FROM members" + where;
    }

    /**
     * The total of a list without a search, from the counters of V11 ({@code member_list_counts}, kept
     * by triggers in the transaction of every write): named parameters partnerId, and status when
     * {@code byStatus}. At most three rows of the counters' primary key.
     */
    public static String counterTotalQuery(boolean byStatus) {
        return "SELECT coalesce(sum(members), 0) FROM member_list_counts WHERE partner_id = :partnerId"
                + (byStatus ? " AND status = :status" : "");
    }

    /**
     * A search's exact count together with the version of the partner's members it was counted at
     * (V12 {@code member_list_versions}, a partner without a row: 0), one statement, one snapshot:
     * named parameters as {@link #countQuery}.
     */
    public static String versionedCountQuery(String where) {
        return "SELECT (" + VERSION_QUERY + "), (" + countQuery(where) + ")";
    }

    /** The version of the partner's members (V12): named parameter partnerId. */
    public static final String VERSION_QUERY = "SELECT coalesce(max(version), 0) FROM member_list_versions WHERE partner_id = :partnerId";

    /** The LIKE pattern bound to {@code :pattern} for a search term: a literal substring; null without a term. */
    public static String pattern(String search) {
        return search == null || search.isEmpty() ? null : "%" + likeEscaped(search) + "%";
    }

    /**
     * A page of {@code GET /internal/members/billing-export}: the partner's members with an id
     * above {@code :after} (the condition left out for the first page), ids ascending. A keyset
     * read of {@code members_partner_id_idx} (V7): the page's index entries and rows only, as
     * cheap on page 200 as on page 1.
     */
    static String billingExportPage(boolean after) {
        return "SELECT * FROM members WHERE partner_id = :partnerId" + (after ? " AND id > :after" : "")
                + " ORDER BY id LIMIT :limit";
    }

    /**
     * A page of members, their request summaries (a member missing from the map has none) and the
     * number of members matching the filters.
     */
    public record Found(List<Member> members, Map<UUID, List<RequestSummary>> requests, long total) {
    }

    /**
     * A page of the billing export: members by id ascending, and each one's status audit rows,
     * oldest first (a member missing from the map never changed status).
     */
    public record BillingPage(List<Member> members, Map<UUID, List<MemberStatusAudit>> statusChanges) {
    }

    /** A search's count and the version of the partner's members it was counted at. */
    private record Counted(long version, long total) {
    }

    /** A search: the partner, the status or null, the LIKE pattern. */
    private record Search(String partnerId, String status, String pattern) {
    }

    /** How many searches' counts are kept (least recently used out first): about 200 bytes each. */
    static final int KEPT_SEARCH_TOTALS = 10_000;

    private final Cache<Search, Counted> searchTotals = Caffeine.newBuilder().maximumSize(KEPT_SEARCH_TOTALS).build();

    /**
     * The last known number of matches of a search (counted, or told by a page that is not full): only which page
     * SQL to run ({@link #pageQuery(String, Long)}), never an answer's total, so it may be out of date.
     */
    private final Cache<Search, Long> searchMatches = Caffeine.newBuilder().maximumSize(KEPT_SEARCH_TOTALS).build();

    /** A page of a search: the search, its offset and its limit. */
    private record SearchPage(Search search, long offset, int limit) {
    }

    /** The ids of a search's page, in order, and the version of the partner's members read just before them. */
    private record PageIds(long version, List<UUID> ids) {
    }

    /** How many search pages' ids are kept (least recently used out first): at most about 4 kB each (100 ids). */
    static final int KEPT_SEARCH_PAGES = 2_000;

    /**
     * The ids of the search pages asked for, each with the version of the partner's members read before the page
     * ({@link #list}): while that version has not moved, no change a list can see has committed (V12: every insert,
     * delete and change of names, email or status moves it; the order, {@code created_at} and {@code id}, never
     * changes), so the page is still those members, in that order, and only their rows are read again.
     */
    private final Cache<SearchPage, PageIds> searchPages = Caffeine.newBuilder().maximumSize(KEPT_SEARCH_PAGES).build();
    private final EntityManager entityManager;
    private final AgroalDataSource dataSource;
    private final MemberRequests requests;
    private final LogContextExecutor executor;

    public MemberQueries(EntityManager entityManager, AgroalDataSource dataSource, MemberRequests requests, ManagedExecutor executor) {
        this.entityManager = entityManager;
        this.dataSource = dataSource;
        this.requests = requests;
        this.executor = new LogContextExecutor(executor);
    }

    /** The partner's member with this id; unknown, another partner's or malformed (empty): 404. */
    public Member get(String partnerId, Optional<UUID> id) {
        return id.flatMap(found -> Member.findOwned(partnerId, found)).orElseThrow(() -> ApiException.notFound(NOT_FOUND));
    }

    /** Every mapped column of {@link Member}, in {@link #detached}'s order. */
    private static final List<String> COLUMNS = List.of("id", "partner_id", "first_name", "last_name", "email", "phone",
            "date_of_birth", "state", "status", "gender", "street1", "street2", "city", "address_state", "zip_code",
            "shipping_street1", "shipping_street2", "shipping_city", "shipping_state", "shipping_zip_code", "created_at",
            "updated_at", "version");

    private static final String OWNED_ROW = "SELECT " + String.join(", ", COLUMNS) + " FROM members WHERE id = ? AND partner_id = ?";

    /** {@link #COLUMNS} of the page's rows ({@code m} in {@link #pageQuery}). */
    private static final String PAGE_COLUMNS = COLUMNS.stream().map(column -> "m." + column).collect(Collectors.joining(", "));

    /**
     * The rows of a search page's kept ids ({@link #list}) together with the version of the partner's members, one
     * statement, one snapshot: named parameters partnerId and ids (a uuid array). {@link #COLUMNS}, then the version
     * last; a row of nulls but the version when none of the ids is (still) the partner's member. Primary-key reads.
     * Public, as {@link #pageQuery}: bench/ replays it for a search page asked again.
     */
    public static final String KEPT_PAGE_QUERY = "SELECT " + PAGE_COLUMNS + ", v.version FROM (" + VERSION_QUERY + ") v(version)"
            + " LEFT JOIN members m ON m.partner_id = :partnerId AND m.id = ANY(:ids)";

    /**
     * {@link #get} for a read that changes nothing (requests-service's member lookup, once per create:
     * issue 23): one statement on a pooled connection, the row copied into a detached {@link Member}
     * that no session knows, so the views are the entity's. Through Hibernate, the session, the query
     * and the entity's hydration were 37 % of this service's CPU per create. Also the first step of
     * {@link MemberService#update}: the connection is back in the pool before requests-service is
     * called.
     */
    public Member read(String partnerId, Optional<UUID> id) {
        if (id.isEmpty()) {
            throw ApiException.notFound(NOT_FOUND);
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(OWNED_ROW)) {
            statement.setObject(1, id.get());
            statement.setString(2, partnerId);
            try (ResultSet row = statement.executeQuery()) {
                if (!row.next()) {
                    throw ApiException.notFound(NOT_FOUND);
                }
                return detached(row);
            }
        } catch (SQLException e) {
            throw new PersistenceException("Reading a member failed", e);
        }
    }

    private static Member detached(ResultSet row) throws SQLException {
        Member m = new Member();
        m.id = row.getObject(1, UUID.class);
        m.partnerId = row.getString(2);
        m.firstName = row.getString(3);
        m.lastName = row.getString(4);
        m.email = row.getString(5);
        m.phone = row.getString(6);
        m.dateOfBirth = row.getString(7);
        m.state = row.getString(8);
        m.status = row.getString(9);
        m.gender = row.getString(10);
        m.street1 = row.getString(11);
        m.street2 = row.getString(12);
        m.city = row.getString(13);
        m.addressState = row.getString(14);
        m.zipCode = row.getString(15);
        m.shippingStreet1 = row.getString(16);
        m.shippingStreet2 = row.getString(17);
        m.shippingCity = row.getString(18);
        m.shippingState = row.getString(19);
        m.shippingZipCode = row.getString(20);
        m.createdAt = row.getObject(21, OffsetDateTime.class).toInstant();
        m.updatedAt = row.getObject(22, OffsetDateTime.class).toInstant();
        m.version = row.getLong(23);
        return m;
    }

    /**
     * The partner's member with this id, for a caller that must tell another partner's member from
     * an unknown one (messaging-service): another partner's: 403 {@value #NOT_THIS_PARTNERS};
     * unknown (deleted members are gone) or malformed (empty): 404. The other partner's row is
     * never read, only counted.
     */
    public Member access(String partnerId, Optional<UUID> id) {
        UUID memberId = id.orElseThrow(() -> ApiException.notFound(NOT_FOUND));
        return Member.findOwned(partnerId, memberId).orElseThrow(() -> Member.exists(memberId)
                ? new ApiException(403, NOT_THIS_PARTNERS)
                : ApiException.notFound(NOT_FOUND));
    }

    /**
     * The partner's members among {@code ids}, in the order asked, each once; unknown and
     * foreign ids are left out.
     */
    public List<Member> batch(String partnerId, List<UUID> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        Map<UUID, Member> found = new HashMap<>();
        Member.<Member>list("partnerId = ?1 and id in ?2", partnerId, new LinkedHashSet<>(ids))
                .forEach(member -> found.put(member.id, member));
        List<Member> ordered = new ArrayList<>();
        for (UUID id : new LinkedHashSet<>(ids)) {
            Member member = found.get(id);
            if (member != null) {
                ordered.add(member);
            }
        }
        return ordered;
    }

    /**
     * billing-service's rebuild: at most {@code limit} of the partner's members with an id above
     * {@code after} (from the first when empty), ids ascending, and their status changes. Two
     * queries whatever the page's size: the members by keyset ({@link #billingExportPage}), then
     * every audit row of the page's members at once ({@link MemberStatusAudit#ofMembers}).
     */
    public BillingPage billingExport(String partnerId, Optional<UUID> after, int limit) {
        Query select = entityManager.createNativeQuery(billingExportPage(after.isPresent()), Member.class);
        select.setParameter("partnerId", partnerId);
        after.ifPresent(id -> select.setParameter("after", id));
        select.setParameter("limit", limit);
        @SuppressWarnings("unchecked")
        List<Member> members = select.getResultList();
        Map<UUID, List<MemberStatusAudit>> changes = new LinkedHashMap<>();
        MemberStatusAudit.ofMembers(partnerId, members.stream().map(member -> member.id).toList())
                .forEach(change -> changes.computeIfAbsent(change.memberId, id -> new ArrayList<>()).add(change));
        return new BillingPage(members, changes);
    }

    /**
     * One page of the partner's members, newest first, after the filters, with their request
     * summaries. {@code search} is a case-insensitive substring of first name, last name or email;
     * {@code status} is exact.
     *
     * <p>The page is read first, so the summaries call to requests-service runs (on the executor,
     * with this call's request id in its log context) while the total is read here. Without a search
     * the total is the counters' ({@link #counterTotalQuery}); a search is counted exactly (the two
     * longest steps of a broad search, overlapped), unless a page with rows that is not full tells the
     * total by itself. A search whose matches are known to be few ({@link #RARE_MATCHES}) reads its page through
     * {@link #rarePageQuery}.
     */
    public Found list(String partnerId, String search, String status, long page, int limit) {
        String pattern = pattern(search);
        String where = where(status != null, search);
        // A page far past any partner's size must not overflow: PostgreSQL takes any bigint offset.
        long offset = page - 1 > Long.MAX_VALUE / limit ? Long.MAX_VALUE : (page - 1) * limit;
        Map<String, Object> values = new HashMap<>();
        values.put("partnerId", partnerId);
        values.put("status", status);
        values.put("pattern", pattern);
        values.put("limit", limit);
        values.put("offset", offset);

        // The connection is back in the pool before the summaries are waited for.
        List<Member> members = new ArrayList<>(limit);
        CompletableFuture<Map<UUID, List<RequestSummary>>> summaries;
        long total;
        Search asked = pattern == null ? null : new Search(partnerId, status, pattern);
        String pageQuery = asked == null ? pageQuery(where) : pageQuery(where, searchMatches.getIfPresent(asked));
        SearchPage searchPage = asked == null ? null : new SearchPage(asked, offset, limit);
        try (Connection connection = dataSource.getConnection()) {
            // A search: its page's kept ids, if the version they were read at is still the partner's (one statement),
            // else the page's SQL, after the version it is kept with (the version read first: a change committing
            // between the two only makes the kept page look older than it is, so it is read again next time).
            Long version = null;
            PageIds kept = searchPage == null ? null : searchPages.getIfPresent(searchPage);
            if (kept != null) {
                version = keptPage(connection, kept, values, members);
            }
            boolean keptHolds = kept != null && version == kept.version() && members.size() == kept.ids().size();
            if (!keptHolds) {
                members.clear();
                if (searchPage != null && (kept == null || version == kept.version())) {
                    // No version read yet, or one that still matched (a kept member gone: never, as a delete moves it).
                    version = single(connection, VERSION_QUERY, values)[0];
                }
                try (PreparedStatement select = prepared(connection, pageQuery, values); ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        members.add(detached(rows));
                    }
                }
                if (searchPage != null) {
                    searchPages.put(searchPage, new PageIds(version, members.stream().map(member -> member.id).toList()));
                }
            }
            summaries = members.isEmpty()
                    ? CompletableFuture.completedFuture(Map.of())
                    : executor.supplyAsync(() -> requests.forMembers(partnerId, members.stream().map(member -> member.id).toList(),
                            MemberRequests.LIST_PER_MEMBER));
            if (pattern == null) {
                // No search: the counters (V11), exact, a few rows whatever the partner's size.
                total = single(connection, counterTotalQuery(status != null), values)[0];
            } else if (!members.isEmpty() && members.size() < limit) {
                total = offset + members.size();
                searchMatches.put(asked, total);
            } else {
                total = searchTotal(connection, asked, where, values, version);
                searchMatches.put(asked, total);
            }
        } catch (SQLException e) {
            throw new PersistenceException("Listing members failed", e);
        }
        return new Found(members, joined(summaries), total);
    }

    /**
     * The exact count of a search, as the contract asks: counted (never reading the table for a common
     * or short term, V6) with the version of the partner's members, or, when the version read now is
     * the one a kept count was made at, that count: no change of the partner's members a list can see
     * has committed since (V12), so it is still exact. A version read is one primary-key row.
     */
    private long searchTotal(Connection connection, Search search, String where, Map<String, Object> values, Long version)
            throws SQLException {
        Counted kept = searchTotals.getIfPresent(search);
        if (kept != null && (version != null ? version : single(connection, VERSION_QUERY, values)[0]) == kept.version()) {
            return kept.total();
        }
        long[] row = single(connection, versionedCountQuery(where), values);
        Counted counted = new Counted(row[0], row[1]);
        searchTotals.put(search, counted);
        return counted.total();
    }

    /**
     * {@link #KEPT_PAGE_QUERY}: the kept ids' rows, in the kept order, added to {@code members} when every one of them
     * is still the partner's member (else none is added); returns the version read with them.
     */
    private static long keptPage(Connection connection, PageIds kept, Map<String, Object> values, List<Member> members)
            throws SQLException {
        Map<String, Object> keptValues = new HashMap<>(values);
        keptValues.put("ids", connection.createArrayOf("uuid", kept.ids().toArray()));
        Map<UUID, Member> found = new HashMap<>();
        long version;
        try (PreparedStatement select = prepared(connection, KEPT_PAGE_QUERY, keptValues); ResultSet rows = select.executeQuery()) {
            rows.next();
            version = rows.getLong(COLUMNS.size() + 1);
            do {
                if (rows.getObject(1) != null) {
                    Member member = detached(rows);
                    found.put(member.id, member);
                }
            } while (rows.next());
        }
        if (found.size() == kept.ids().size()) {
            kept.ids().forEach(id -> members.add(found.get(id)));
        }
        return version;
    }

    /** A {@code :name} parameter of the list's SQL (a PostgreSQL cast, {@code ::type}, is not one). */
    static final Pattern NAMED = Pattern.compile("(?<!:):([A-Za-z]+)");

    /** The SQL with its {@code :name} parameters as JDBC's, each bound to its value in {@code values}. */
    private static PreparedStatement prepared(Connection connection, String named, Map<String, Object> values) throws SQLException {
        List<Object> bound = new ArrayList<>();
        Matcher parameter = NAMED.matcher(named);
        StringBuilder sql = new StringBuilder(named.length());
        while (parameter.find()) {
            bound.add(values.get(parameter.group(1)));
            parameter.appendReplacement(sql, "?");
        }
        parameter.appendTail(sql);
        PreparedStatement statement = connection.prepareStatement(sql.toString());
        for (int i = 0; i < bound.size(); i++) {
            statement.setObject(i + 1, bound.get(i));
        }
        return statement;
    }

    /** The one row of a statement of numbers (a count, a sum, a version), as longs. */
    private static long[] single(Connection connection, String named, Map<String, Object> values) throws SQLException {
        try (PreparedStatement statement = prepared(connection, named, values); ResultSet row = statement.executeQuery()) {
            row.next();
            long[] numbers = new long[row.getMetaData().getColumnCount()];
            for (int i = 0; i < numbers.length; i++) {
                numbers[i] = row.getLong(i + 1);
            }
            return numbers;
        }
    }

    /** The future's value, or the exception it failed with (a 503 {@code ApiException}), unwrapped. */
    private static <T> T joined(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** The term as a literal LIKE substring: backslash (PostgreSQL's default escape), % and _ escaped. */
    static String likeEscaped(String term) {
        return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
