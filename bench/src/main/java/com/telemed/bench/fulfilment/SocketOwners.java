package com.telemed.bench.fulfilment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Which process holds the client end of each open TCP connection to a local server port, from
 * /proc: the connection's inode in /proc/net/tcp (and tcp6), and the process whose
 * /proc/&lt;pid&gt;/fd links to {@code socket:[inode]}. So the pharmacy's orders can be counted per
 * requests-service replica by the client port they came from. Connections closed by the time this
 * reads are not found (their orders count as "unknown").
 */
final class SocketOwners {

    private SocketOwners() {
    }

    /** Client port -> pid, for connections to {@code serverPort} whose client end one of {@code pids} holds. */
    static Map<Integer, Long> clientPorts(int serverPort, List<Long> pids) {
        Map<Long, Long> inodeToPid = new HashMap<>();
        for (long pid : pids) {
            try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
                fds.forEach(fd -> {
                    try {
                        String target = Files.readSymbolicLink(fd).toString();
                        if (target.startsWith("socket:[")) {
                            inodeToPid.put(Long.parseLong(target.substring(8, target.length() - 1)), pid);
                        }
                    } catch (IOException | RuntimeException gone) {
                        // closed meanwhile
                    }
                });
            } catch (IOException | RuntimeException gone) {
                // no such process, or no /proc
            }
        }
        Map<Integer, Long> owners = new HashMap<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines;
            try {
                lines = Files.readAllLines(Path.of(table));
            } catch (IOException e) {
                continue;
            }
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 10) {
                    continue;
                }
                int localPort = Integer.parseInt(f[1].substring(f[1].lastIndexOf(':') + 1), 16);
                int remotePort = Integer.parseInt(f[2].substring(f[2].lastIndexOf(':') + 1), 16);
                Long pid = inodeToPid.get(Long.parseLong(f[9]));
                if (remotePort == serverPort && pid != null) {
                    owners.put(localPort, pid);
                }
            }
        }
        return owners;
    }
}
