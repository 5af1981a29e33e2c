package org.fastflowj.bench.nexmark;

import java.io.Serializable;

/**
 * A NEXMark event: a new person, a new auction or a bid. Every engine gets these same objects from {@link
 * NexmarkGenerator}; {@code dateTime} is the event time in milliseconds.
 */
public sealed interface Event extends Serializable permits Event.Person, Event.Auction, Event.Bid {
    long dateTime();

    /** A person joining the auction site. */
    record Person(
            long id, String name, String emailAddress, String creditCard, String city, String state, long dateTime)
            implements Event {}

    /** An auction opened by {@code seller}. */
    record Auction(
            long id,
            String itemName,
            String description,
            long initialBid,
            long reserve,
            long dateTime,
            long expires,
            long seller,
            long category)
            implements Event {}

    /** A bid of {@code price} (in cents of a dollar) by {@code bidder} on {@code auction}. */
    record Bid(long auction, long bidder, long price, String channel, String url, long dateTime) implements Event {}
}
