package org.fastflowj.bench.nexmark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.fastflowj.bench.nexmark.Event.Auction;
import org.fastflowj.bench.nexmark.Event.Bid;
import org.fastflowj.bench.nexmark.Event.Person;
import org.fastflowj.bench.nexmark.Results.AuctionCount;
import org.fastflowj.bench.nexmark.Results.AuctionPrice;
import org.fastflowj.bench.nexmark.Results.HighestBid;
import org.fastflowj.bench.nexmark.Results.HotItem;
import org.fastflowj.bench.nexmark.Results.NewPerson;
import org.fastflowj.bench.nexmark.Results.PersonAuction;

/**
 * The queries' results computed the plain way, on one thread, from every event in order: what each
 * engine's output must equal (as a multiset of lines). Windows follow the engines' convention: aligned to
 * time 0, a record at {@code t} in every {@code [start, start + size)} holding it.
 */
public final class Reference {
    private Reference() {}

    public static void results(Query query, long events, NexmarkGenerator generator, Consumer<Object> out) {
        switch (query) {
            case BOUND, Q1_BOUND -> { // q1-bound's work is the tally's
                for (long n = 0; n < events; n++) {
                    out.accept(generator.event(n));
                }
            }
            case Q1 -> forBids(events, generator, b -> out.accept(Results.inEuros(b)));
            case Q2 -> forBids(events, generator, b -> {
                if (Results.q2Selects(b)) {
                    out.accept(new AuctionPrice(b.auction(), b.price()));
                }
            });
            case Q3 -> {
                Map<Long, Person> persons = new HashMap<>();
                List<Auction> auctions = new ArrayList<>();
                for (long n = 0; n < events; n++) {
                    Event e = generator.event(n);
                    if (Results.q3Person(e)) {
                        persons.put(((Person) e).id(), (Person) e);
                    } else if (Results.q3Auction(e)) {
                        auctions.add((Auction) e);
                    }
                }
                for (Auction a : auctions) {
                    Person p = persons.get(a.seller());
                    if (p != null) {
                        out.accept(PersonAuction.of(p, a));
                    }
                }
            }
            case Q5, Q5_100MS -> {
                // window start -> auction -> bids
                Map<Long, Map<Long, long[]>> counts = new TreeMap<>();
                forBids(events, generator, b -> {
                    long t = b.dateTime();
                    long last = Math.floorDiv(t, query.slideMillis) * query.slideMillis;
                    for (long start = last; start > t - query.sizeMillis; start -= query.slideMillis) {
                        counts.computeIfAbsent(start, s -> new HashMap<>())
                                .computeIfAbsent(b.auction(), a -> new long[1])[0]++;
                    }
                });
                counts.forEach((start, perAuction) -> {
                    AuctionCount best = null;
                    for (Map.Entry<Long, long[]> e : perAuction.entrySet()) {
                        AuctionCount c = new AuctionCount(start, start + query.sizeMillis, e.getKey(), e.getValue()[0]);
                        best = best == null ? c : Results.hotter(best, c);
                    }
                    out.accept(HotItem.of(best));
                });
            }
            case Q7 -> {
                Map<Long, Bid> highest = new TreeMap<>();
                forBids(events, generator, b -> {
                    long start = Math.floorDiv(b.dateTime(), query.sizeMillis) * query.sizeMillis;
                    highest.merge(start, b, Results::higher);
                });
                highest.forEach((start, b) -> out.accept(new HighestBid(start, start + query.sizeMillis, b)));
            }
            case Q8_BOUND -> {
                for (long n = 0; n < events; n++) {
                    Event e = generator.event(n);
                    if (e instanceof Person || e instanceof Auction) {
                        out.accept(e);
                    }
                }
            }
            case Q8 -> {
                Map<List<Long>, Person> persons = new HashMap<>();
                List<Auction> auctions = new ArrayList<>();
                for (long n = 0; n < events; n++) {
                    Event e = generator.event(n);
                    if (e instanceof Person p) {
                        persons.put(List.of(windowOf(p.dateTime()), p.id()), p);
                    } else if (e instanceof Auction a) {
                        auctions.add(a);
                    }
                }
                for (Auction a : auctions) {
                    long start = windowOf(a.dateTime());
                    Person p = persons.get(List.of(start, a.seller()));
                    if (p != null) {
                        out.accept(new NewPerson(p.id(), p.name(), start));
                    }
                }
            }
        }
    }

    private static long windowOf(long t) {
        return Math.floorDiv(t, Query.Q8.sizeMillis) * Query.Q8.sizeMillis;
    }

    private static void forBids(long events, NexmarkGenerator generator, Consumer<Bid> f) {
        for (long n = 0; n < events; n++) {
            if (generator.event(n) instanceof Bid b) {
                f.accept(b);
            }
        }
    }
}
