package org.fastflowj.dist.net;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import javax.net.ssl.SSLException;

/**
 * The two TLS contexts of a transport, built once from the PEM files: the server side requires a
 * client certificate (mutual TLS), the client side verifies that the server's certificate names the
 * host it dialled.
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
                    .endpointIdentificationAlgorithm("HTTPS")
                    .sslProvider(SslProvider.JDK)
                    .build();
            return new TlsContexts(server, client);
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot load the TLS files " + files + ": " + e.getMessage(), e);
        }
    }
}
