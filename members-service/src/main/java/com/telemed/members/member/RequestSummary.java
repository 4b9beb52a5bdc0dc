package com.telemed.members.member;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;
import java.util.UUID;

/** An entry of {@code requests} on member reads (partner-api.md, Request summary). */
@JsonPropertyOrder({"id", "drugId", "prescriptionName", "dosage", "status", "caseNotes", "createdAt", "updatedAt"})
public record RequestSummary(UUID id, String drugId, String prescriptionName, String dosage, String status,
                             String caseNotes, Instant createdAt, Instant updatedAt) {
}
