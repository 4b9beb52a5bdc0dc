package com.telemed.bench.requests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RequestsPostThroughputTest {

    /** Two rounds kept as one: the mean rate and p50, the worse p99, errors and calls summed. */
    @Test
    void twoRoundsAreTheirMeanWithTheWorseTail() {
        RequestsPostThroughput.Load first = new RequestsPostThroughput.Load("a", 400, 30, 90, 1, 12_000);
        RequestsPostThroughput.Load second = new RequestsPostThroughput.Load("b", 500, 20, 110, 0, 15_000);

        assertEquals(new RequestsPostThroughput.Load("both", 450, 25, 110, 1, 27_000),
                RequestsPostThroughput.both("both", first, second));
    }
}
