package org.fastflowj.bench.nexmark;

import java.io.Serializable;

/**
 * The NEXMark event model (as in the Apache Beam and Flink NEXMark generators): out of every 50 events, 1
 * person, 3 auctions and 46 bids; person and auction ids grow with the event number (from 1000), a new
 * auction's seller is a recent person (3 of 4 times the first of the last batch of 100, a "hot" seller),
 * a bid goes to a hot auction half of the time and comes from a hot bidder 3 of 4 times, else to one of
 * the last 100 auctions (or the next 10) and from one of the last 1000 people (or the next 10).
 *
 * <p>Event {@code n} is a pure function of {@code n}: its random draws come from a generator seeded by
 * {@code n}, so an engine's source instance {@code i} of {@code k} makes events {@code i, i + k, ...} and
 * every engine sees the same events. Event time advances by {@code 1 / eventsPerSecond} per event from 0.
 */
public final class NexmarkGenerator implements Serializable {
    private static final long serialVersionUID = 1L;

    static final int PERSON_PROPORTION = 1;
    static final int AUCTION_PROPORTION = 3;
    static final int BID_PROPORTION = 46;
    static final int PROPORTION_DENOMINATOR = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION;

    static final long FIRST_PERSON_ID = 1000;
    static final long FIRST_AUCTION_ID = 1000;
    static final long FIRST_CATEGORY_ID = 10;
    static final int NUM_CATEGORIES = 5;
    static final int NUM_ACTIVE_PEOPLE = 1000;
    static final int PERSON_ID_LEAD = 10;
    static final int NUM_IN_FLIGHT_AUCTIONS = 100;
    static final int AUCTION_ID_LEAD = 10;
    static final int HOT_AUCTION_RATIO = 100;
    static final int HOT_SELLER_RATIO = 100;
    static final int HOT_BIDDER_RATIO = 100;
    static final int HOT_AUCTIONS = 2;
    static final int HOT_SELLERS = 4;
    static final int HOT_BIDDERS = 4;
    static final long AUCTION_LENGTH_MS = 10_000;

    private static final String[] FIRST_NAMES = {
        "Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"
    };
    private static final String[] LAST_NAMES = {
        "Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"
    };
    private static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
    private static final String[] CITIES = {
        "Phoenix", "Los Angeles", "San Francisco", "Boise", "Portland", "Bend", "Redmond", "Seattle", "Kent", "Cheyenne"
    };
    private static final String[] HOT_CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};
    private static final int CHANNELS = 10_000;
    private static final String[] CHANNEL_NAMES = new String[CHANNELS];
    private static final String[] CHANNEL_URLS = new String[CHANNELS];

    static {
        // Channel names and urls come from a fixed pool, so a bid allocates only itself.
        for (int i = 0; i < CHANNELS; i++) {
            boolean hot = i < HOT_CHANNELS.length;
            CHANNEL_NAMES[i] = hot ? HOT_CHANNELS[i] : "channel-" + i;
            CHANNEL_URLS[i] = "https://www.nexmark.com/item.htm?query=1&channel_id=" + i;
        }
    }

    private final double eventsPerSecond;

    /** Event time advancing by {@code 1 / eventsPerSecond} s per event. */
    public NexmarkGenerator(double eventsPerSecond) {
        if (!(eventsPerSecond > 0)) {
            throw new IllegalArgumentException(
                    "NEXMark generator: events per second of event time must be > 0, not " + eventsPerSecond);
        }
        this.eventsPerSecond = eventsPerSecond;
    }

    public double eventsPerSecond() {
        return eventsPerSecond;
    }

    /** Event {@code n}'s time in ms. */
    public long timestamp(long n) {
        return (long) (n * 1000.0 / eventsPerSecond);
    }

    /** The number of the first event whose time is at least {@code millis}. */
    public long firstEventAt(long millis) {
        long n = (long) Math.ceil(millis * eventsPerSecond / 1000.0);
        while (n > 0 && timestamp(n - 1) >= millis) {
            n--;
        }
        while (timestamp(n) < millis) {
            n++;
        }
        return n;
    }

    /** Event number {@code n} (from 0). */
    public Event event(long n) {
        Draws draws = new Draws(n);
        long time = timestamp(n);
        long offset = n % PROPORTION_DENOMINATOR;
        if (offset < PERSON_PROPORTION) {
            return person(n, draws, time);
        } else if (offset < PERSON_PROPORTION + AUCTION_PROPORTION) {
            return auction(n, draws, time);
        }
        return bid(n, draws, time);
    }

    private static Event.Person person(long n, Draws draws, long time) {
        long id = lastBase0PersonId(n) + FIRST_PERSON_ID;
        String name =
                FIRST_NAMES[draws.nextInt(FIRST_NAMES.length)] + " " + LAST_NAMES[draws.nextInt(LAST_NAMES.length)];
        String email = "p" + id + "@nexmark.example";
        String card = cardNumber(draws);
        String city = CITIES[draws.nextInt(CITIES.length)];
        String state = STATES[draws.nextInt(STATES.length)];
        return new Event.Person(id, name, email, card, city, state, time);
    }

    /**
     * Four groups of four digits, "%04d %04d %04d %04d" of four draws below 10 000, written by hand: through
     * String.format it cost more than the rest of a person, and every engine pays it in its source.
     */
    static String cardNumber(Draws draws) {
        byte[] text = new byte[19];
        for (int group = 0; group < 4; group++) {
            int digits = draws.nextInt(10_000);
            int at = group * 5;
            for (int i = 3; i >= 0; i--) {
                text[at + i] = (byte) ('0' + digits % 10);
                digits /= 10;
            }
            if (group < 3) {
                text[at + 4] = ' ';
            }
        }
        return new String(text, java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static Event.Auction auction(long n, Draws draws, long time) {
        long id = lastBase0AuctionId(n) + FIRST_AUCTION_ID;
        long seller;
        if (draws.nextInt(HOT_SELLERS) > 0) {
            seller = (lastBase0PersonId(n) / HOT_SELLER_RATIO) * HOT_SELLER_RATIO;
        } else {
            seller = nextBase0PersonId(n, draws);
        }
        seller += FIRST_PERSON_ID;
        long category = FIRST_CATEGORY_ID + draws.nextInt(NUM_CATEGORIES);
        long initialBid = nextPrice(draws);
        long reserve = initialBid + nextPrice(draws);
        long expires = time + AUCTION_LENGTH_MS / 2 + draws.nextInt((int) AUCTION_LENGTH_MS);
        return new Event.Auction(
                id, "item-" + id, "auction " + id, initialBid, reserve, time, expires, seller, category);
    }

    private static Event.Bid bid(long n, Draws draws, long time) {
        long auction;
        if (draws.nextInt(HOT_AUCTIONS) > 0) {
            auction = (lastBase0AuctionId(n) / HOT_AUCTION_RATIO) * HOT_AUCTION_RATIO;
        } else {
            auction = nextBase0AuctionId(n, draws);
        }
        auction += FIRST_AUCTION_ID;
        long bidder;
        if (draws.nextInt(HOT_BIDDERS) > 0) {
            bidder = (lastBase0PersonId(n) / HOT_BIDDER_RATIO) * HOT_BIDDER_RATIO + 1;
        } else {
            bidder = nextBase0PersonId(n, draws);
        }
        bidder += FIRST_PERSON_ID;
        long price = nextPrice(draws);
        int channel = draws.nextInt(2) > 0 ? draws.nextInt(HOT_CHANNELS.length) : draws.nextInt(CHANNELS);
        return new Event.Bid(auction, bidder, price, CHANNEL_NAMES[channel], CHANNEL_URLS[channel], time);
    }

    /** The last person id (from 0) made at or before event {@code n}. */
    static long lastBase0PersonId(long n) {
        long epoch = n / PROPORTION_DENOMINATOR;
        long offset = n % PROPORTION_DENOMINATOR;
        if (offset >= PERSON_PROPORTION) {
            offset = PERSON_PROPORTION - 1;
        }
        return epoch * PERSON_PROPORTION + offset;
    }

    /** The last auction id (from 0) made at or before event {@code n} (-1 before the first). */
    static long lastBase0AuctionId(long n) {
        long epoch = n / PROPORTION_DENOMINATOR;
        long offset = n % PROPORTION_DENOMINATOR;
        if (offset < PERSON_PROPORTION) {
            epoch--;
            offset = AUCTION_PROPORTION - 1;
        } else if (offset >= PERSON_PROPORTION + AUCTION_PROPORTION) {
            offset = AUCTION_PROPORTION - 1;
        } else {
            offset -= PERSON_PROPORTION;
        }
        return epoch * AUCTION_PROPORTION + offset;
    }

    private static long nextBase0PersonId(long n, Draws draws) {
        long people = lastBase0PersonId(n) + 1;
        long active = Math.min(people, NUM_ACTIVE_PEOPLE);
        return people - active + draws.nextLong(active + PERSON_ID_LEAD);
    }

    private static long nextBase0AuctionId(long n, Draws draws) {
        long max = Math.max(lastBase0AuctionId(n), 0);
        long min = Math.max(max - NUM_IN_FLIGHT_AUCTIONS, 0);
        return min + draws.nextLong(max - min + 1 + AUCTION_ID_LEAD);
    }

    /** A price in cents, log-uniform from $1 to $1,000,000. */
    private static long nextPrice(Draws draws) {
        return Math.round(Math.pow(10.0, draws.nextDouble() * 6.0) * 100.0);
    }

    /** SplitMix64 seeded by the event number: the event's own reproducible random draws. */
    static final class Draws {
        private long state;

        Draws(long seed) {
            state = seed * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
        }

        long nextLong() {
            long z = (state += 0x9E3779B97F4A7C15L);
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        long nextLong(long bound) {
            return Math.floorMod(nextLong(), bound);
        }

        int nextInt(int bound) {
            return (int) nextLong(bound);
        }

        double nextDouble() {
            return (nextLong() >>> 11) * 0x1.0p-53;
        }
    }
}
