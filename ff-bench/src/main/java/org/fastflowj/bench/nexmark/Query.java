package org.fastflowj.bench.nexmark;

import java.time.Duration;

/** The NEXMark queries measured here, and the in-run bound (the generator into the counting sink). */
public enum Query {
    /** The generator straight into the counting sink: what no query can beat. */
    BOUND(false, 0, 0),
    /** Bids, price in euros. */
    Q1(false, 0, 0),
    /**
     * Q1's own work (the filter, the currency map) done in the counting sink on the generator's events, with
     * nothing between: what q1 cannot beat on an engine whose every hand-over were free.
     */
    Q1_BOUND(false, 0, 0),
    /** Bids on auctions {@code % 123 == 0}: (auction, price). */
    Q2(false, 0, 0),
    /** Persons in OR, ID, CA joined with their category-10 auctions, incrementally: (name, city, state, auction). */
    Q3(false, 0, 0),
    /** Hot items: bids per auction in 10 s windows sliding by 1 s, the top auction per window. */
    Q5(true, 10_000, 1_000),
    /** Q5 sliding by 100 ms. */
    Q5_100MS(true, 10_000, 100),
    /** The highest bid per tumbling 10 s window. */
    Q7(true, 10_000, 10_000),
    /** New users: persons and their auctions in the same tumbling 10 s window: (person, name, window start). */
    Q8(true, 10_000, 10_000),
    /** q8's two sources (persons, auctions) straight into the counting sink: what q8 cannot beat. */
    Q8_BOUND(true, 0, 0);

    final boolean windowed;
    final long sizeMillis;
    final long slideMillis;

    Query(boolean windowed, long sizeMillis, long slideMillis) {
        this.windowed = windowed;
        this.sizeMillis = sizeMillis;
        this.slideMillis = slideMillis;
    }

    Duration size() {
        return Duration.ofMillis(sizeMillis);
    }

    Duration slide() {
        return Duration.ofMillis(slideMillis);
    }
}
