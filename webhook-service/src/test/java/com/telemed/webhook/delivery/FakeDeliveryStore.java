package com.telemed.webhook.delivery;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link DeliveryStore} without a database, for the dispatcher's parts alone: claims answer what a
 * test scripts, and every call is kept. The next {@link #failing} statements fail.
 */
class FakeDeliveryStore extends DeliveryStore {

    /** One claim as asked: its limit and the partners left out. */
    record Claim(int limit, List<String> leftOut) {
    }

    interface Claims {
        List<Job> claim(int limit, Collection<String> leftOut) throws SQLException;
    }

    final List<Claim> claims = new CopyOnWriteArrayList<>();
    final List<List<Outcome>> recorded = new CopyOnWriteArrayList<>();
    final List<List<UUID>> released = new CopyOnWriteArrayList<>();
    final List<List<UUID>> renewed = new CopyOnWriteArrayList<>();
    final AtomicInteger failing = new AtomicInteger();
    private volatile Claims answers = (limit, leftOut) -> List.of();

    FakeDeliveryStore(RetryPolicy policy) {
        super(null, null, null, policy);
    }

    void answering(Claims answers) {
        this.answers = answers;
    }

    @Override
    public List<Job> claim(int limit, Collection<String> saturatedPartners) throws SQLException {
        claims.add(new Claim(limit, List.copyOf(saturatedPartners)));
        return answers.claim(limit, saturatedPartners);
    }

    @Override
    public void release(Collection<UUID> ids) throws SQLException {
        failIfAsked();
        released.add(List.copyOf(ids));
    }

    @Override
    public void renew(Collection<UUID> ids) throws SQLException {
        failIfAsked();
        renewed.add(List.copyOf(ids));
    }

    @Override
    public void record(List<Outcome> outcomes) throws SQLException {
        failIfAsked();
        recorded.add(new ArrayList<>(outcomes));
    }

    private void failIfAsked() throws SQLException {
        if (failing.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new SQLException("scripted failure");
        }
    }
}
