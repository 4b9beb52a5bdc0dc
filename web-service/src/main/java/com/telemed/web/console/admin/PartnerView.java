package com.telemed.web.console.admin;

/**
 * A partner's page ({@code console-partner.html}): its name, id and creation time (UTC), the rotate form,
 * and, only in the answer to its creation or a rotation, the keys the gateway shows once: never in an
 * address, never stored, never logged.
 *
 * @param apiKey the new API key, or null
 * @param publishableKey the publishable key (creation only), or null
 * @param notice what was just done ({@code Partner created}, {@code API key rotated}), or null
 */
public record PartnerView(String id, String name, String createdAt, String apiKey, String publishableKey, String notice, String csrf) {

    public String rotateAction() {
        return "/console/partners/" + com.telemed.web.page.Pages.encode(id) + "/rotate-key";
    }

    public String deliveriesHref() {
        return "/console/partners/" + com.telemed.web.page.Pages.encode(id) + "/deliveries";
    }
}
