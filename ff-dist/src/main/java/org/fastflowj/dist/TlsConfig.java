package org.fastflowj.dist;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The {@code tls} object of a config: the PEM files a group uses to secure its links.
 *
 * <p>Relative paths in the file are resolved against the config file's folder (against the working
 * directory for {@link DffConfig#parse}), so a config and its certificates can move together. The
 * files are not opened while the config is read: the config is also checked on machines that do not
 * hold them.
 *
 * <p>Threading: immutable, safe to share.
 *
 * @param certFile this group's certificate chain (PEM)
 * @param keyFile this group's private key (PEM)
 * @param trustFile the CA or peer certificates to trust (PEM)
 * @param enabled false keeps the settings in the file but runs without TLS
 */
public record TlsConfig(Path certFile, Path keyFile, Path trustFile, boolean enabled) {
    public TlsConfig {
        Objects.requireNonNull(certFile, "certFile");
        Objects.requireNonNull(keyFile, "keyFile");
        Objects.requireNonNull(trustFile, "trustFile");
    }
}
