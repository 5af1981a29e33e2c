package org.fastflowj.examples.swsearch;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.fastflowj.core.Node;

/** The three kinds of node of the search farm. */
final class Nodes {
    private Nodes() {}

    /** Emitter: streams one ⟨query, subject⟩ pair per database record, as the file is read. */
    static final class PairEmitter extends Node<Void, Pair> {
        private final Protein query;
        private final Path database;

        PairEmitter(Protein query, Path database) {
            this.query = query;
            this.database = database;
        }

        @Override
        protected Pair svc(Void none) {
            Fasta.read(database, subject -> sendOut(new Pair(query, subject)));
            return eos();
        }
    }

    /** Worker: scores one pair. */
    static final class Scorer extends Node<Pair, Hit> {
        private final SmithWaterman aligner;

        Scorer(int open, int extend) {
            aligner = new SmithWaterman(open, extend);
        }

        @Override
        protected Hit svc(Pair pair) {
            Protein s = pair.subject();
            int score = aligner.score(pair.query().residues(), s.residues());
            return new Hit(s.index(), s.id(), s.description(), s.length(), score);
        }
    }

    /** Collector: keeps the best hits and counts the cells; prints them at the end. */
    static final class TopHits extends Node<Hit, Void> {
        private final int top;
        private final int queryLength;
        private final PrintStream out;
        private final PriorityQueue<Hit> best; // worst of the kept hits at the head
        private long sequences;
        private long residues;
        private long startNs;

        TopHits(int top, int queryLength, PrintStream out) {
            this.top = top;
            this.queryLength = queryLength;
            this.out = out;
            this.best = new PriorityQueue<>(Hit.BEST_FIRST.reversed());
        }

        @Override
        protected void svcInit() {
            startNs = System.nanoTime();
        }

        @Override
        protected Void svc(Hit hit) {
            sequences++;
            residues += hit.length();
            best.add(hit);
            if (best.size() > top) {
                best.poll();
            }
            return goOn();
        }

        @Override
        protected void svcEnd() {
            double seconds = (System.nanoTime() - startNs) / 1e9;
            List<Hit> hits = new ArrayList<>(best);
            hits.sort(Hit.BEST_FIRST);
            for (int rank = 0; rank < hits.size(); rank++) {
                Hit h = hits.get(rank);
                out.printf("%d\t%d\t%s\t%s%n", rank + 1, h.score(), h.id(), h.description());
            }
            double cells = (double) queryLength * residues;
            out.printf(
                    "swsearch: %d sequences, %d residues, query %d residues in %.3f s: %.3f GCUPS%n",
                    sequences, residues, queryLength, seconds, cells / seconds / 1e9);
            out.flush();
        }
    }
}
