package org.fastflowj.examples.swsearch;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.fastflowj.examples.InputException;

/**
 * Reads a FASTA file record by record: a header line {@code >ID description}, then sequence lines of
 * residue letters ({@code *} allowed, blanks ignored). Anything else is an {@link InputException} naming
 * the file and line: sequence data before the first header, a character that is not a residue, a record
 * with no residues.
 */
final class Fasta {
    private Fasta() {}

    static void read(Path file, Consumer<Protein> records) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            new Parser(file, records).parse(in);
        } catch (IOException e) {
            throw new InputException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    private static final class Parser {
        private final Path file;
        private final Consumer<Protein> records;
        private String header;
        private int headerLine;
        private int count;
        private final StringBuilder residues = new StringBuilder();

        Parser(Path file, Consumer<Protein> records) {
            this.file = file;
            this.records = records;
        }

        void parse(BufferedReader in) throws IOException {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.startsWith(">")) {
                    flush();
                    header = line.substring(1).trim();
                    headerLine = number;
                    if (header.isEmpty()) {
                        throw error(number, "empty header");
                    }
                } else if (!line.isBlank()) {
                    if (header == null) {
                        throw error(number, "sequence data before the first '>' header");
                    }
                    appendResidues(line, number);
                }
            }
            flush();
        }

        private void appendResidues(String line, int number) {
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (Blosum50.isResidue(c)) {
                    residues.append(c);
                } else if (!Character.isWhitespace(c)) {
                    throw error(number, "invalid residue '" + c + "' at column " + (i + 1));
                }
            }
        }

        private void flush() {
            if (header == null) {
                return;
            }
            if (residues.length() == 0) {
                throw error(headerLine, "record '" + header + "' has no sequence");
            }
            byte[] codes = new byte[residues.length()];
            for (int i = 0; i < codes.length; i++) {
                codes[i] = (byte) Blosum50.index(residues.charAt(i));
            }
            int blank = header.indexOf(' ');
            String id = blank < 0 ? header : header.substring(0, blank);
            String description = blank < 0 ? "" : header.substring(blank + 1).trim();
            records.accept(new Protein(count++, id, description, codes));
            residues.setLength(0);
            header = null;
        }

        private InputException error(int line, String message) {
            return new InputException(file + ":" + line + ": " + message);
        }
    }
}
