package org.fastflowj.examples.swsearch;

import java.util.SplittableRandom;

/**
 * A synthetic protein database that looks like a real one: residues drawn with natural amino-acid
 * frequencies, lengths spread around 350 (log-normal, 30 to 3000), and a family of homologues, mutated
 * copies of one ancestor (point substitutions and short insertions and deletions), a few in a hundred
 * records, so a query from the family has true hits to find. The same seed gives the same sequences.
 */
final class ProteinGenerator {
    private static final String RESIDUES = "ARNDCQEGHILKMFPSTWYV";
    /** Background frequencies in percent, in the order of {@link #RESIDUES}. */
    private static final double[] FREQUENCIES = {
        7.8, 5.1, 4.5, 5.4, 1.9, 4.3, 6.3, 7.4, 2.3, 5.3, 9.1, 5.7, 2.2, 3.9, 5.2, 7.1, 5.8, 1.3, 3.2, 6.4
    };

    private final SplittableRandom random;
    private final double[] cumulative = new double[FREQUENCIES.length];
    private final String ancestor;

    ProteinGenerator(long seed) {
        random = new SplittableRandom(seed);
        double sum = 0;
        for (double f : FREQUENCIES) {
            sum += f;
        }
        double running = 0;
        for (int i = 0; i < FREQUENCIES.length; i++) {
            running += FREQUENCIES[i] / sum;
            cumulative[i] = running;
        }
        ancestor = randomSequence(300);
    }

    /** The sequence of database record {@code index}: a homologue about one time in thirty. */
    String nextSequence() {
        if (random.nextInt(30) == 0) {
            return homologue(0.2 + random.nextDouble() * 0.5);
        }
        double length = Math.exp(Math.log(350) + 0.6 * random.nextGaussian());
        return randomSequence((int) Math.max(30, Math.min(3000, length)));
    }

    /** A member of the family, mutated at about {@code rate} of its positions. */
    String homologue(double rate) {
        StringBuilder s = new StringBuilder(ancestor.length() + 20);
        for (int i = 0; i < ancestor.length(); i++) {
            double u = random.nextDouble();
            if (u < rate * 0.9) {
                s.append(residue()); // substitution
            } else if (u < rate * 0.95) {
                continue; // deletion
            } else if (u < rate) {
                s.append(ancestor.charAt(i)).append(residue()); // insertion
            } else {
                s.append(ancestor.charAt(i));
            }
        }
        return s.toString();
    }

    private String randomSequence(int length) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            s.append(residue());
        }
        return s.toString();
    }

    private char residue() {
        double u = random.nextDouble();
        for (int i = 0; i < cumulative.length - 1; i++) {
            if (u < cumulative[i]) {
                return RESIDUES.charAt(i);
            }
        }
        return RESIDUES.charAt(cumulative.length - 1);
    }

    /** A FASTA record, 60 residues a line. */
    static String record(String header, String sequence) {
        StringBuilder s = new StringBuilder(">").append(header).append('\n');
        for (int i = 0; i < sequence.length(); i += 60) {
            s.append(sequence, i, Math.min(sequence.length(), i + 60)).append('\n');
        }
        return s.toString();
    }
}
