package com.telemed.requests.fulfilment;

/**
 * A pharmacy's shipping update ({@code POST /ops/v1/pharmacy/updates}), bound after
 * {@link FulfilmentSchemas#SHIPPING_UPDATE}; the sandbox's simulated pharmacy sends its own ({@code simulation}).
 */
public record ShippingUpdateInput(String pharmacyOrderId, String status, String trackingNumber, String shipCarrier,
                                  Boolean shipped) {
}
