package com.telemed.testkit.trust;

/**
 * The people the services' {@code /ops} access tests act as ({@value TestServiceProofs#PRINCIPAL_HEADER}
 * values, {@link TestServiceProofs#person}): one account per role, the prescriber's naming
 * {@value #PRESCRIBER_ID}. Their ids appear in the audit entries those tests expect.
 */
public final class TestPrincipals {

    /** The prescriber the {@link #PRESCRIBER} account names. */
    public static final String PRESCRIBER_ID = "pr_1";
    public static final String ADMIN = TestServiceProofs.person("acc_admin", null, "admin");
    public static final String SUPPORT = TestServiceProofs.person("acc_support", null, "support");
    public static final String PRESCRIBER = TestServiceProofs.person("acc_prescriber", PRESCRIBER_ID, "prescriber");

    private TestPrincipals() {
    }
}
