package org.fastflowj.bench.nexmark;

import java.io.Serializable;
import java.util.Set;
import org.fastflowj.bench.nexmark.Event.Auction;
import org.fastflowj.bench.nexmark.Event.Bid;
import org.fastflowj.bench.nexmark.Event.Person;

/**
 * The queries' result types and the rules they share on every engine: the filters, the euro rate, and the
 * tie-breaks of the top-1 queries, so that the engines' outputs are equal line for line ({@code
 * toString()} is the canonical line).
 */
public final class Results {
    private Results() {}

    /** A window result: its latency is measured from its window's end. */
    public interface Windowed {
        long end();
    }

    static final Set<String> Q3_STATES = Set.of("OR", "ID", "CA");
    static final long Q3_CATEGORY = 10;
    static final long Q2_MODULUS = 123;

    /** q1: the bid with its price in euros. */
    static Bid inEuros(Bid b) {
        return new Bid(b.auction(), b.bidder(), b.price() * 908 / 1000, b.channel(), b.url(), b.dateTime());
    }

    static boolean q2Selects(Bid b) {
        return b.auction() % Q2_MODULUS == 0;
    }

    static boolean q3Person(Event e) {
        return e instanceof Person p && Q3_STATES.contains(p.state());
    }

    static boolean q3Auction(Event e) {
        return e instanceof Auction a && a.category() == Q3_CATEGORY;
    }

    /** q2's result. */
    public record AuctionPrice(long auction, long price) implements Serializable {}

    /** q3's result. */
    public record PersonAuction(String name, String city, String state, long auction) implements Serializable {
        static PersonAuction of(Person p, Auction a) {
            return new PersonAuction(p.name(), p.city(), p.state(), a.id());
        }
    }

    /** q5's intermediate result: the bids of an auction in a window. */
    public record AuctionCount(long start, long end, long auction, long count) implements Serializable, Windowed {}

    /** q5's result: a window's hottest auction. */
    public record HotItem(long start, long end, long auction, long count) implements Serializable, Windowed {
        static HotItem of(AuctionCount c) {
            return new HotItem(c.start(), c.end(), c.auction(), c.count());
        }
    }

    /** q7's result: a window's highest bid. */
    public record HighestBid(long start, long end, Bid bid) implements Serializable, Windowed {}

    /** q8's result: a person who opened an auction in the window they joined in. */
    public record NewPerson(long id, String name, long start) implements Serializable, Windowed {
        @Override
        public long end() {
            return start + Query.Q8.sizeMillis;
        }
    }

    /** Auction counts from the coldest to the hottest: the greatest is {@link #hotter}'s choice. */
    static int compareHeat(AuctionCount a, AuctionCount b) {
        int byCount = Long.compare(a.count(), b.count());
        return byCount != 0 ? byCount : Long.compare(b.auction(), a.auction());
    }

    /** Bids from the lowest to the highest: the greatest is {@link #higher}'s choice. */
    static int compareHeight(Bid a, Bid b) {
        if (a == b) {
            return 0;
        }
        return higher(a, b) == a ? (higher(b, a) == b ? 0 : 1) : -1;
    }

    /** The hotter of two auction counts: more bids, then the smaller auction id. */
    static AuctionCount hotter(AuctionCount a, AuctionCount b) {
        if (a.count() != b.count()) {
            return a.count() > b.count() ? a : b;
        }
        return a.auction() <= b.auction() ? a : b;
    }

    /** The higher of two bids: the higher price, then the smaller auction, bidder, time, url. */
    static Bid higher(Bid a, Bid b) {
        if (a.price() != b.price()) {
            return a.price() > b.price() ? a : b;
        }
        if (a.auction() != b.auction()) {
            return a.auction() < b.auction() ? a : b;
        }
        if (a.bidder() != b.bidder()) {
            return a.bidder() < b.bidder() ? a : b;
        }
        if (a.dateTime() != b.dateTime()) {
            return a.dateTime() < b.dateTime() ? a : b;
        }
        return a.url().compareTo(b.url()) <= 0 ? a : b;
    }
}
