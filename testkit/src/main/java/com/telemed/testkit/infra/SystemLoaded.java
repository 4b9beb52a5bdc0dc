package com.telemed.testkit.infra;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The JVM's one set of servers as another class loader sees it. A Quarkus test loads this kit in a
 * class loader of each application it boots, and a class's statics belong to its loader: left alone,
 * every boot would start servers of its own. So {@link Infrastructure#shared()} keeps the set in
 * the instance of {@link Infrastructure} that the system class loader (which has the whole test
 * class path) loads, and every other loader works through views of it, calling it by reflection
 * and passing only the JDK's types (strings, numbers, lists, paths).
 */
final class SystemLoaded {

    private final Object target;

    private SystemLoaded(Object target) {
        this.target = target;
    }

    /**
     * The system class loader's {@link Infrastructure#shared()}, or {@code null} when this class
     * loader is that one (or the kit is not on the system class path): then it holds the set itself.
     */
    static Object canonicalShared() {
        ClassLoader system = ClassLoader.getSystemClassLoader();
        if (Infrastructure.class.getClassLoader() == system) {
            return null;
        }
        Class<?> canonical;
        try {
            canonical = Class.forName(Infrastructure.class.getName(), true, system);
        } catch (ClassNotFoundException notThere) {
            return null;
        }
        if (canonical == Infrastructure.class) {
            return null;
        }
        return new SystemLoaded(canonical).callStatic("shared");
    }

    /** A view of {@code canonical} (the system class loader's shared Infrastructure) in this loader. */
    static Infrastructure view(Object canonical) {
        SystemLoaded infrastructure = new SystemLoaded(canonical);
        SystemLoaded postgres = new SystemLoaded(infrastructure.call("postgres"));
        SystemLoaded kafka = new SystemLoaded(infrastructure.call("kafka"));
        SystemLoaded mail = new SystemLoaded(infrastructure.call("mail"));
        PostgresServer postgresView = new PostgresView(postgres);
        KafkaCluster kafkaView = kafka.is(EmbeddedKafkaBroker.class)
                ? EmbeddedKafkaBroker.viewOf(new KafkaControl(kafka))
                : new ExternalKafkaCluster((String) kafka.call("bootstrapServers"));
        MailServer mailView = mail.is(EmbeddedMailServer.class)
                ? EmbeddedMailServer.viewOf(new MailControl(mail))
                : new ExternalMailServer((String) mail.call("host"), (Integer) mail.call("port"));
        return Infrastructure.view(postgresView, kafkaView, mailView, (Path) infrastructure.call("directory"));
    }

    private boolean is(Class<?> type) {
        return target.getClass().getName().equals(type.getName());
    }

    private Object call(String method) {
        return invoke(target.getClass(), target, method);
    }

    private Object callStatic(String method) {
        return invoke((Class<?>) target, null, method);
    }

    /**
     * Calls the method with the system class loader's classes as the thread's context loader too:
     * the Kafka clients and JDBC there look their plugins up through it, and would find this loader's
     * copies of their classes otherwise.
     */
    private static Object invoke(Class<?> type, Object on, String method) {
        Thread thread = Thread.currentThread();
        ClassLoader caller = thread.getContextClassLoader();
        thread.setContextClassLoader(type.getClassLoader());
        try {
            Method found = type.getMethod(method);
            found.setAccessible(true);
            return found.invoke(on);
        } catch (InvocationTargetException e) {
            throw rethrown(e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the shared servers have no " + method + "()", e);
        } finally {
            thread.setContextClassLoader(caller);
        }
    }

    private static RuntimeException rethrown(InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(cause);
    }

    /** The shared PostgreSQL: its address and login; databases are made over JDBC from here. */
    private record PostgresView(SystemLoaded server) implements PostgresServer {

        @Override
        public String host() {
            return (String) server.call("host");
        }

        @Override
        public int port() {
            return (Integer) server.call("port");
        }

        @Override
        public String username() {
            return (String) server.call("username");
        }

        @Override
        public String password() {
            return (String) server.call("password");
        }

        @Override
        public void ensureDatabase(String name) {
            Databases.ensureDatabase(this, name);
        }

        @Override
        public long pid() {
            return (Long) server.call("pid");
        }

        @Override
        public void close() {
            // The JVM's: it stops when the JVM exits.
        }
    }

    /** The shared embedded broker's controls. */
    record KafkaControl(SystemLoaded broker) {

        void start() {
            broker.call("start");
        }

        void stop() {
            broker.call("stop");
        }

        int kill() {
            return (Integer) broker.call("kill");
        }

        long pid() {
            return (Long) broker.call("pid");
        }

        String bootstrapServers() {
            return (String) broker.call("bootstrapServers");
        }

        @SuppressWarnings("unchecked")
        Map<String, String> clientSecurity() {
            return (Map<String, String>) broker.call("clientSecurity");
        }
    }

    /** The shared embedded SMTP server's controls; its mail copied into this loader's records. */
    record MailControl(SystemLoaded server) {

        void start() {
            server.call("start");
        }

        void stop() {
            server.call("stop");
        }

        boolean isRunning() {
            return (Boolean) server.call("isRunning");
        }

        String host() {
            return (String) server.call("host");
        }

        int port() {
            return (Integer) server.call("port");
        }

        OptionalInt imapPort() {
            return (OptionalInt) server.call("imapPort");
        }

        void purge() {
            server.call("purge");
        }

        @SuppressWarnings("unchecked")
        List<ReceivedMail> received() {
            List<ReceivedMail> copies = new ArrayList<>();
            for (Object mail : (List<Object>) server.call("received")) {
                SystemLoaded original = new SystemLoaded(mail);
                copies.add(new ReceivedMail((String) original.call("deliveredTo"), (String) original.call("from"),
                        (List<String>) original.call("recipients"), (String) original.call("subject"),
                        (String) original.call("text"), (String) original.call("html")));
            }
            return copies;
        }
    }
}
