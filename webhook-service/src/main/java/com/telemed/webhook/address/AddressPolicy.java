package com.telemed.webhook.address;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.Arrays;

/**
 * Which resolved addresses a webhook may be sent to (decisions.md, Webhooks). In production only
 * public unicast addresses are allowed; sandbox and local configuration allow everything
 * (http and loopback receivers). Pure: no DNS here, the caller resolves and asks per address.
 */
public final class AddressPolicy {

    private final boolean production;

    public AddressPolicy(boolean production) {
        this.production = production;
    }

    public boolean production() {
        return production;
    }

    public boolean allowed(InetAddress address) {
        return !production || isPublic(address);
    }

    /** True for a global unicast address: nothing loopback, private, link-local, multicast or otherwise internal. */
    public static boolean isPublic(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (address instanceof Inet4Address || bytes.length == 4) {
            return isPublicV4(bytes);
        }
        return isPublicV6(bytes);
    }

    static boolean isPublicV4(byte[] a) {
        int b0 = a[0] & 0xff;
        int b1 = a[1] & 0xff;
        int b2 = a[2] & 0xff;
        if (b0 == 0) {                                   // 0.0.0.0/8 "this network", incl. unspecified
            return false;
        }
        if (b0 == 10) {                                  // 10/8 private
            return false;
        }
        if (b0 == 100 && (b1 & 0xc0) == 64) {            // 100.64/10 CGNAT
            return false;
        }
        if (b0 == 127) {                                 // 127/8 loopback
            return false;
        }
        if (b0 == 169 && b1 == 254) {                    // 169.254/16 link-local (cloud metadata)
            return false;
        }
        if (b0 == 172 && (b1 & 0xf0) == 16) {            // 172.16/12 private
            return false;
        }
        if (b0 == 192 && b1 == 168) {                    // 192.168/16 private
            return false;
        }
        if (b0 == 192 && b1 == 0 && (b2 == 0 || b2 == 2)) { // 192.0.0/24 IETF, 192.0.2/24 documentation
            return false;
        }
        if (b0 == 198 && (b1 & 0xfe) == 18) {            // 198.18/15 benchmarking
            return false;
        }
        if (b0 == 198 && b1 == 51 && b2 == 100) {        // documentation
            return false;
        }
        if (b0 == 203 && b1 == 0 && b2 == 113) {         // documentation
            return false;
        }
        // 224/4 multicast, 240/4 reserved, 255.255.255.255 broadcast
        return b0 < 224;
    }

    static boolean isPublicV6(byte[] a) {
        if (allZero(a, 0, 10)) {
            int b10 = a[10] & 0xff;
            int b11 = a[11] & 0xff;
            if (b10 == 0xff && b11 == 0xff) {             // ::ffff:a.b.c.d IPv4-mapped
                return isPublicV4(Arrays.copyOfRange(a, 12, 16));
            }
            if (b10 == 0 && b11 == 0) {                   // ::, ::1 and ::a.b.c.d IPv4-compatible
                return isPublicV4(Arrays.copyOfRange(a, 12, 16));
            }
            return false;                                  // other forms under ::/80: nothing public
        }
        int b0 = a[0] & 0xff;
        int b1 = a[1] & 0xff;
        if (b0 == 0xff) {                                 // ff00::/8 multicast
            return false;
        }
        if ((b0 & 0xfe) == 0xfc) {                        // fc00::/7 unique local
            return false;
        }
        if (b0 == 0xfe && (b1 & 0xc0) == 0x80) {          // fe80::/10 link-local
            return false;
        }
        if (b0 == 0xfe && (b1 & 0xc0) == 0xc0) {          // fec0::/10 site-local (deprecated)
            return false;
        }
        if (b0 == 0x00 && b1 == 0x64 && (a[2] & 0xff) == 0xff && (a[3] & 0xff) == 0x9b) {
            // 64:ff9b::/96 NAT64 (and 64:ff9b:1::/48 local-use): judge the embedded IPv4 address
            if ((a[4] | a[5]) != 0) {
                return false;
            }
            return isPublicV4(Arrays.copyOfRange(a, 12, 16));
        }
        if (b0 == 0x20 && b1 == 0x02) {                   // 2002::/16 6to4: judge the embedded IPv4 address
            return isPublicV4(Arrays.copyOfRange(a, 2, 6));
        }
        if (b0 == 0x20 && b1 == 0x01 && a[2] == 0 && a[3] == 0) { // 2001::/32 Teredo: tunnels anywhere
            return false;
        }
        if (b0 == 0x20 && b1 == 0x01 && (a[2] & 0xff) == 0x0d && (a[3] & 0xff) == 0xb8) { // 2001:db8::/32 documentation
            return false;
        }
        if (b0 == 0x01 && b1 == 0x00 && allZero(a, 2, 8)) { // 100::/64 discard
            return false;
        }
        return (b0 & 0xe0) == 0x20;                        // only 2000::/3 is global unicast
    }

    private static boolean allZero(byte[] a, int from, int to) {
        for (int i = from; i < to; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
