package com.telemed.requests.consultation;

import com.telemed.common.config.ProductionRequirement;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Production refuses to start without the public base of booking links (platform-commons'
 * {@code ProductionSettings}): without it every link a partner hands a patient would point at a
 * developer's machine. The chart sets it from {@code global.publicUrl}.
 */
@Singleton
public class BookingProductionSettings {

    @Produces
    @Singleton
    ProductionRequirement bookingBaseUrl() {
        return ProductionRequirement.required("requests.booking.base-url", "BOOKING_BASE_URL");
    }
}
