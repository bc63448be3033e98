"""A certificate authority made in the test, as Puppet's CA makes them: a CA, a server
certificate for PuppetDB on loopback, and client certificates for `facts pull --cert`."""

from __future__ import annotations

import datetime
import ipaddress
import os
from dataclasses import dataclass

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


@dataclass(frozen=True, slots=True)
class CertFiles:
    cert: str
    key: str


@dataclass(frozen=True, slots=True)
class TestCA:
    """PEM files under one directory: ``ca.pem``, and a certificate and key per name."""

    directory: str
    ca: str  # the CA certificate's file

    def issue(self, name: str, *, server: bool = False) -> CertFiles:
        """A certificate for ``name`` signed by this CA (``server``: with loopback's names)."""
        with open(os.path.join(self.directory, "ca_key.pem"), "rb") as f:
            ca_key = serialization.load_pem_private_key(f.read(), None)
        with open(self.ca, "rb") as f:
            ca_cert = x509.load_pem_x509_certificate(f.read())
        assert isinstance(ca_key, rsa.RSAPrivateKey)
        key = _key()
        builder = _builder(name, ca_cert.subject, key).add_extension(
            x509.BasicConstraints(ca=False, path_length=None), critical=True
        )
        usage = ExtendedKeyUsageOID.SERVER_AUTH if server else ExtendedKeyUsageOID.CLIENT_AUTH
        builder = builder.add_extension(
            x509.ExtendedKeyUsage([usage, ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False
        )
        if server:
            names: list[x509.GeneralName] = [
                x509.DNSName("localhost"),
                x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
            ]
            builder = builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
        cert = builder.sign(ca_key, hashes.SHA256())
        files = CertFiles(
            os.path.join(self.directory, f"{name}.pem"),
            os.path.join(self.directory, f"{name}_key.pem"),
        )
        _write(files.cert, cert.public_bytes(serialization.Encoding.PEM))
        _write(files.key, _pem_key(key))
        return files


def make_ca(directory: str, name: str = "hiera-ls test CA") -> TestCA:
    os.makedirs(directory, exist_ok=True)
    key = _key()
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    cert = (
        _builder(name, subject, key)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .sign(key, hashes.SHA256())
    )
    ca = os.path.join(directory, "ca.pem")
    _write(ca, cert.public_bytes(serialization.Encoding.PEM))
    _write(os.path.join(directory, "ca_key.pem"), _pem_key(key))
    return TestCA(directory, ca)


def _key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _pem_key(key: rsa.RSAPrivateKey) -> bytes:
    # Puppet writes PKCS#1 ("BEGIN RSA PRIVATE KEY"); PuppetDB's Jetty reads it
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    )


def _builder(name: str, issuer: x509.Name, key: rsa.RSAPrivateKey) -> x509.CertificateBuilder:
    now = datetime.datetime.now(datetime.UTC)
    return (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
        .issuer_name(issuer)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
    )


def _write(path: str, data: bytes) -> None:
    with open(path, "wb") as f:
        f.write(data)
