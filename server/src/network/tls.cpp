#include "server/src/network/tls.hpp"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509err.h>

#include <fstream>

namespace galloper::server {

namespace {

// OpenSSL's queued errors as one line, emptied.
std::string openssl_errors() {
  std::string out;
  while (const unsigned long e = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    if (!out.empty()) out += "; ";
    out += buf;
  }
  return out.empty() ? std::string("unknown OpenSSL error") : out;
}

std::optional<std::string> unreadable(const char* flag, const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return std::string(flag) + " " + file.string() + ": no such file";
  if (!std::filesystem::is_regular_file(file, ec)) return std::string(flag) + " " + file.string() + ": not a file";
  if (!std::ifstream(file, std::ios::binary)) return std::string(flag) + " " + file.string() + ": cannot be read";
  return std::nullopt;
}

}  // namespace

std::variant<std::shared_ptr<TlsContext::Context>, std::string> TlsContext::load(const std::filesystem::path& cert,
                                                                                 const std::filesystem::path& key) {
  if (auto why = unreadable("--tls-cert", cert)) return *why;
  if (auto why = unreadable("--tls-key", key)) return *why;
  auto ctx = std::make_shared<Context>(Context::tls_server);
  SSL_CTX* native = ctx->native_handle();
  ERR_clear_error();
  // TLS 1.2 is the oldest version offered; 1.0 and 1.1 are refused in the handshake.
  if (SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION) != 1) return "TLS: " + openssl_errors();
  SSL_CTX_set_options(native, SSL_OP_NO_COMPRESSION | SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_RENEGOTIATION);
  if (SSL_CTX_use_certificate_chain_file(native, cert.c_str()) != 1) {
    return "--tls-cert " + cert.string() + ": not a PEM certificate (" + openssl_errors() + ")";
  }
  if (SSL_CTX_use_PrivateKey_file(native, key.c_str(), SSL_FILETYPE_PEM) != 1) {
    if (ERR_GET_REASON(ERR_peek_last_error()) == X509_R_KEY_VALUES_MISMATCH) {
      ERR_clear_error();
      return "--tls-key " + key.string() + " does not belong to the certificate in --tls-cert " + cert.string();
    }
    return "--tls-key " + key.string() + ": not a PEM private key without a passphrase (" + openssl_errors() + ")";
  }
  if (SSL_CTX_check_private_key(native) != 1) {
    return "--tls-key " + key.string() + " does not belong to the certificate in --tls-cert " + cert.string();
  }
  return ctx;
}

std::variant<std::shared_ptr<TlsContext>, std::string> TlsContext::open(std::filesystem::path cert,
                                                                        std::filesystem::path key) {
  auto loaded = load(cert, key);
  if (auto* why = std::get_if<std::string>(&loaded)) return *why;
  return std::shared_ptr<TlsContext>(
      new TlsContext(std::move(cert), std::move(key), std::get<std::shared_ptr<Context>>(std::move(loaded))));
}

std::shared_ptr<TlsContext::Context> TlsContext::current() const {
  std::lock_guard lock(mu_);
  return context_;
}

std::optional<std::string> TlsContext::reload() {
  auto loaded = load(cert_, key_);
  if (auto* why = std::get_if<std::string>(&loaded)) return *why;
  std::lock_guard lock(mu_);
  context_ = std::get<std::shared_ptr<Context>>(std::move(loaded));
  return std::nullopt;
}

std::string TlsContext::describe() const {
  const auto ctx = current();
  X509* cert = SSL_CTX_get0_certificate(ctx->native_handle());
  if (cert == nullptr) return "no certificate";
  std::string out;
  char subject[512];
  X509_NAME_oneline(X509_get_subject_name(cert), subject, sizeof subject);
  out += subject;
  if (BIO* bio = BIO_new(BIO_s_mem())) {
    if (ASN1_TIME_print(bio, X509_get0_notAfter(cert)) == 1) {
      char* data = nullptr;
      const long n = BIO_get_mem_data(bio, &data);
      out += ", valid until " + std::string(data, static_cast<std::size_t>(n));
    }
    BIO_free(bio);
  }
  return out;
}

}  // namespace galloper::server
