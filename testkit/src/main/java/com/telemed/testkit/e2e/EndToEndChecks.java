package com.telemed.testkit.e2e;

import com.telemed.testkit.contract.ContractCheck;
import com.telemed.testkit.http.RestAssuredExchanges;
import com.telemed.testkit.logscan.SensitiveValues;

/**
 * The two checks every end-to-end call goes through, switched on by each platform that starts:
 * the log scan's record of the patient data and credentials the suite used ({@link SensitiveValues}),
 * and the OpenAPI contract check of every answer from the platform's gateway ({@link ContractCheck},
 * which fetches the gateway's documents now). Calls reach both through REST Assured's global filters
 * and the testkit's own clients.
 */
final class EndToEndChecks {

    private EndToEndChecks() {
    }

    static void platformStarted(RunningPlatform.Handle platform) {
        SensitiveValues.instance().listen();
        SensitiveValues.instance().record(SensitiveValues.Kind.OPS_KEY, platform.opsKey());
        SensitiveValues.instance().record(SensitiveValues.Kind.TRUST_KEY, platform.secrets().trustKey());
        SensitiveValues.instance().record(SensitiveValues.Kind.ATTACHMENT_LINK_KEY, platform.secrets().attachmentLinkKey());
        SensitiveValues.instance().record(SensitiveValues.Kind.DATABASE_PASSWORD, platform.secrets().databasePassword());
        SensitiveValues.instance().record(SensitiveValues.Kind.SMTP_PASSWORD, platform.secrets().smtpPassword());
        if (restAssuredPresent()) {
            RestAssuredExchanges.install();
        }
        ContractCheck.instance().register(platform.gateway(), platform.opsKey());
    }

    static void platformStopping(RunningPlatform.Handle platform) {
        ContractCheck.instance().unregister(platform.gateway());
    }

    private static boolean restAssuredPresent() {
        try {
            Class.forName("io.restassured.RestAssured", false, EndToEndChecks.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException absent) {
            return false;
        }
    }
}
