package com.telemed.webhook.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AddressPolicyTest {

    private static final AddressPolicy PRODUCTION = new AddressPolicy(true);
    private static final AddressPolicy SANDBOX = new AddressPolicy(false);

    @ParameterizedTest(name = "{0} public={1}")
    @CsvSource({
            // IPv4 loopback, unspecified, this-network
            "127.0.0.1, false",
            "127.255.255.254, false",
            "0.0.0.0, false",
            "0.1.2.3, false",
            // private
            "10.0.0.1, false",
            "10.255.255.255, false",
            "172.16.0.1, false",
            "172.31.255.255, false",
            "172.15.255.255, true",
            "172.32.0.1, true",
            "192.168.0.1, false",
            "192.168.255.255, false",
            "192.167.1.1, true",
            // CGNAT 100.64/10
            "100.64.0.1, false",
            "100.127.255.255, false",
            "100.63.255.255, true",
            "100.128.0.1, true",
            // link-local, cloud metadata
            "169.254.169.254, false",
            "169.254.0.1, false",
            "169.253.1.1, true",
            // multicast, reserved, broadcast
            "224.0.0.1, false",
            "239.255.255.255, false",
            "240.0.0.1, false",
            "255.255.255.255, false",
            // documentation / benchmarking
            "192.0.2.1, false",
            "198.51.100.7, false",
            "203.0.113.9, false",
            "198.18.0.1, false",
            "192.0.0.8, false",
            // public
            "8.8.8.8, true",
            "1.1.1.1, true",
            "93.184.216.34, true",
            "223.255.255.255, true",
            // IPv6 loopback, unspecified
            "::1, false",
            "::, false",
            // IPv4-mapped forms of internal addresses
            "::ffff:127.0.0.1, false",
            "::ffff:7f00:1, false",
            "::ffff:10.0.0.1, false",
            "::ffff:169.254.169.254, false",
            "::ffff:192.168.1.1, false",
            "::ffff:0.0.0.0, false",
            "::ffff:8.8.8.8, true",
            // IPv4-compatible forms
            "::127.0.0.1, false",
            "::7f00:1, false",
            "::a00:1, false",
            "::8.8.8.8, true",
            // link-local, unique local, site-local, multicast
            "fe80::1, false",
            "febf:ffff::1, false",
            "fc00::1, false",
            "fd12:3456:789a::1, false",
            "fec0::1, false",
            "ff02::1, false",
            "ff05::1:3, false",
            // NAT64 and 6to4 embedding internal IPv4, Teredo, documentation, discard
            "64:ff9b::7f00:1, false",
            "64:ff9b::a9fe:a9fe, false",
            "64:ff9b::808:808, true",
            "2002:7f00:1::1, false",
            "2002:c0a8:101::1, false",
            "2002:808:808::1, true",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2, false",
            "2001:db8::1, false",
            "100::1, false",
            // global unicast
            "2606:4700:4700::1111, true",
            "2a00:1450:4001:80b::200e, true",
            // outside 2000::/3
            "4000::1, false",
    })
    void table(String address, boolean expectedPublic) throws UnknownHostException {
        InetAddress parsed = InetAddress.getByName(address);
        assertEquals(expectedPublic, AddressPolicy.isPublic(parsed), address);
        assertEquals(expectedPublic, PRODUCTION.allowed(parsed), address);
        assertTrue(SANDBOX.allowed(parsed), "sandbox allows " + address);
    }
}
