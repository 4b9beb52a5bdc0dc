package com.telemed.billing.summary;

import com.telemed.billing.period.BillingPeriod;
import com.telemed.billing.period.PeriodQuery;
import com.telemed.billing.settings.BillingSettings;
import com.telemed.common.error.ApiException;
import com.telemed.common.json.Timestamps;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The billing summary of a partner's period (partner-api.md, Billing), from billing-service's own
 * ledger and settings only: no call to another service answers it.
 */
@ApplicationScoped
public class Summaries {

    public static final String NOT_ENABLED = "Billing not enabled for this partner";
    static final String UNKNOWN = "Unknown";

    private final BillableRows rows;
    private final Clock clock;

    public Summaries(BillableRows rows, Clock clock) {
        this.rows = rows;
        this.clock = clock;
    }

    @Transactional
    public SummaryView summary(String partnerId, String periodQuery) {
        BillingSettings settings = BillingSettings.findById(partnerId);
        if (settings == null || !settings.enabled) {
            throw ApiException.notFound(NOT_ENABLED);
        }
        LocalDate target = PeriodQuery.target(periodQuery, LocalDate.now(clock));
        boolean weekly = BillingSettings.WEEKLY.equals(settings.cycle);
        BillingPeriod period = weekly ? BillingPeriod.weekly(target, DayOfWeek.of(settings.weekday)) : BillingPeriod.monthly(target);
        List<SummaryView.BillableMember> members = new ArrayList<>();
        rows.forEach(partnerId, period.end(), row -> {
            if (Inclusion.includes(period, weekly, row.billingStart(), row.timeline())) {
                members.add(new SummaryView.BillableMember(row.memberId().toString(), name(row.firstName(), row.lastName()),
                        row.email() == null ? "" : row.email(), Timestamps.format(row.billingStart()),
                        Inclusion.startDay(row.billingStart()).getDayOfMonth()));
            }
        });
        BigDecimal rate = settings.ratePerMember.stripTrailingZeros();
        return new SummaryView(
                new SummaryView.Period(Timestamps.format(period.start()), Timestamps.format(period.end()), period.label()),
                rate, members, members.size(), rate.multiply(BigDecimal.valueOf(members.size())).stripTrailingZeros());
    }

    /** First and last name; {@code Unknown} when both are blank (or not known yet). */
    static String name(String first, String last) {
        String name = ((first == null ? "" : first.trim()) + " " + (last == null ? "" : last.trim())).trim();
        return name.isEmpty() ? UNKNOWN : name;
    }
}
