package org.fastflowj.dist.net;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import javax.net.ssl.SSLException;

/**
 * The two TLS contexts of a transport, built once from the PEM files: the server side requires a
 * client certificate (mutual TLS). Both check the peer's chain against the trust file; which name
 * the certificate must carry is checked by the handshake handlers ({@link CertificateNames}), the same
 * way on both sides, against the peer group's TLS name rather than the host that was dialled.
 *
 * <p>Threading: immutable; {@link SslContext} is thread-safe.
 */
record TlsContexts(SslContext server, SslContext client) {

    static TlsContexts load(TlsFiles files) {
        try {
            SslContext server = SslContextBuilder.forServer(
                            files.certFile().toFile(), files.keyFile().toFile())
                    .trustManager(files.trustFile().toFile())
                    .clientAuth(ClientAuth.REQUIRE)
                    .sslProvider(SslProvider.JDK)
                    .build();
            SslContext client = SslContextBuilder.forClient()
                    .keyManager(files.certFile().toFile(), files.keyFile().toFile())
                    .trustManager(files.trustFile().toFile())
                    // Not the dialled host: CertificateNames checks the peer group's TLS name instead.
                    .endpointIdentificationAlgorithm(null)
                    .sslProvider(SslProvider.JDK)
                    .build();
            return new TlsContexts(server, client);
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot load the TLS files " + files + ": " + e.getMessage(), e);
        }
    }
}
