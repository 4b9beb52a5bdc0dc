package com.telemed.billing.summary;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.math.BigDecimal;
import java.util.List;

/** {@code GET /v1/billing}'s answer, exactly the contract's fields (partner-api.md, Billing). */
@JsonPropertyOrder({"period", "ratePerMember", "billableMembers", "uniqueMemberCount", "totalAmount"})
public record SummaryView(Period period, BigDecimal ratePerMember, List<BillableMember> billableMembers,
                          int uniqueMemberCount, BigDecimal totalAmount) {

    @JsonPropertyOrder({"startDate", "endDate", "label"})
    public record Period(String startDate, String endDate, String label) {
    }

    @JsonPropertyOrder({"memberId", "memberName", "memberEmail", "billingStartDate", "billingAnniversaryDay"})
    public record BillableMember(String memberId, String memberName, String memberEmail, String billingStartDate,
                                 int billingAnniversaryDay) {
    }
}
