package com.telemed.requests.pharmacy;

/** One way of transmitting an order to a pharmacy. Called with no transaction open. */
public interface PharmacyAdapter {

    PharmacyAnswer transmit(PharmacyOrder order);
}
