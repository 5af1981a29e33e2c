package org.fastflowj.dist.net;

import java.nio.file.Path;
import java.util.Objects;

/**
 * PEM files for mutual TLS between groups: this group's certificate chain and private key (PKCS#8), and
 * the certificates it trusts for its peers. Both sides present a certificate; the server requires one.
 *
 * <p>Each side also checks that the other's certificate names the group it is (the client: the group
 * it dialled; the server: the group named in the HELLO): its subject CN or a DNS or IP subject
 * alternative name must equal the group's TLS name ({@link WireSettings#tlsNames()}).
 *
 * <p>Threading: immutable.
 */
public record TlsFiles(Path certFile, Path keyFile, Path trustFile) {
    public TlsFiles {
        Objects.requireNonNull(certFile, "certFile");
        Objects.requireNonNull(keyFile, "keyFile");
        Objects.requireNonNull(trustFile, "trustFile");
    }
}
