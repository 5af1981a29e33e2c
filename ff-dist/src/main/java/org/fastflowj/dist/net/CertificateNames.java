package org.fastflowj.dist.net;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Binds a group to its certificate: the peer's certificate (already verified against the trust file by
 * TLS) must name the group's TLS name as its subject CN or as a DNS or IP subject alternative name.
 * Names compare case-insensitively, IP addresses by value ({@code ::1} equals {@code 0:0:0:0:0:0:0:1});
 * wildcards are not honoured, since a certificate that stands for many groups would let any of them
 * pose as another.
 *
 * <p>Threading: stateless.
 */
final class CertificateNames {
    private static final int SAN_DNS = 2;
    private static final int SAN_IP = 7;

    private CertificateNames() {}

    /**
     * Null if the TLS peer of {@code channel} has a certificate naming {@code expectedName}, else what is
     * wrong, naming what the certificate carries.
     */
    static String problem(Channel channel, String group, String expectedName) {
        SslHandler ssl = channel.pipeline().get(SslHandler.class);
        Certificate[] chain;
        try {
            chain = ssl.engine().getSession().getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return "no verified certificate for group " + group;
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate cert)) {
            return "no X.509 certificate for group " + group;
        }
        List<String> names = names(cert);
        for (String name : names) {
            if (matches(name, expectedName)) {
                return null;
            }
        }
        return "the certificate names " + names + " but group " + group + " must present one for '" + expectedName
                + "' (its tlsName, else its endpoint host)";
    }

    /** The subject CNs and the DNS and IP subject alternative names, as "CN=x", "DNS:x", "IP:x". */
    static List<String> names(X509Certificate cert) {
        List<String> names = new ArrayList<>();
        try {
            for (Rdn rdn : new LdapName(cert.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    names.add("CN=" + rdn.getValue());
                }
            }
        } catch (InvalidNameException e) {
            // an unparsable subject names nothing; the SANs may still match
        }
        try {
            Collection<List<?>> sans = cert.getSubjectAlternativeNames();
            if (sans != null) {
                for (List<?> san : sans) {
                    int type = (Integer) san.get(0);
                    if (type == SAN_DNS) {
                        names.add("DNS:" + san.get(1));
                    } else if (type == SAN_IP) {
                        names.add("IP:" + san.get(1));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            // no usable SANs
        }
        return names;
    }

    private static boolean matches(String certName, String expected) {
        String value = certName.substring(certName.indexOf(certName.startsWith("CN=") ? '=' : ':') + 1);
        if (certName.startsWith("IP:")) {
            return sameAddress(value, expected);
        }
        return value.toLowerCase(Locale.ROOT).equals(expected.toLowerCase(Locale.ROOT))
                || (certName.startsWith("CN=") && sameAddress(value, expected));
    }

    private static boolean sameAddress(String a, String b) {
        if (!isIpLiteral(a) || !isIpLiteral(b)) {
            return false;
        }
        try {
            // Literals only (checked above): no name is looked up.
            return InetAddress.getByName(a).equals(InetAddress.getByName(b));
        } catch (UnknownHostException e) {
            return false;
        }
    }

    static boolean isIpLiteral(String host) {
        return host.contains(":") || host.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    }
}
