package org.fastflowj.examples.swsearch;

/**
 * One FASTA record: its identifier (the header up to the first blank), the rest of the header, its number
 * in the file, and its residues as {@link Blosum50} indices.
 */
public record Protein(int index, String id, String description, byte[] residues) {
    public int length() {
        return residues.length;
    }
}
