package org.fastflowj.dist.net;

import java.nio.file.Path;
import java.util.Objects;

/**
 * PEM files for mutual TLS between groups: this group's certificate chain and private key (PKCS#8), and
 * the certificates it trusts for its peers. Both sides present a certificate; the server requires one.
 *
 * <p>The client also checks that the server's certificate names the host it dialled (HTTPS-style
 * endpoint identification), so each group's certificate must carry its endpoint host as a subject
 * alternative name (DNS name or IP address).
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
