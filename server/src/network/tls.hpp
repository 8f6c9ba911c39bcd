#pragma once
// The server's TLS certificate and key (`serve --tls-cert --tls-key`): loaded
// and checked at start, reloaded on SIGHUP. Each new connection takes the
// context current when it arrives and keeps it for its life, so a reload
// changes what new connections see and never disturbs open ones.
#include <boost/asio/ssl/context.hpp>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>

namespace galloper::server {

class TlsContext {
 public:
  using Context = boost::asio::ssl::context;

  // A server context for TLS 1.2 and later from a PEM certificate chain and
  // its private key, or why not, in words that name the file at fault.
  static std::variant<std::shared_ptr<Context>, std::string> load(const std::filesystem::path& cert,
                                                                   const std::filesystem::path& key);

  // Loads both files; nullopt and the reason when they cannot serve.
  static std::variant<std::shared_ptr<TlsContext>, std::string> open(std::filesystem::path cert,
                                                                     std::filesystem::path key);

  // The context for a connection arriving now.
  std::shared_ptr<Context> current() const;
  // Reads the files again. On success new connections use them; otherwise
  // the old context stays and the reason is returned.
  std::optional<std::string> reload();
  // The subject and expiry of the certificate in use, for log lines.
  std::string describe() const;

 private:
  TlsContext(std::filesystem::path cert, std::filesystem::path key, std::shared_ptr<Context> context)
      : cert_(std::move(cert)), key_(std::move(key)), context_(std::move(context)) {}

  const std::filesystem::path cert_;
  const std::filesystem::path key_;
  mutable std::mutex mu_;
  std::shared_ptr<Context> context_;
};

}  // namespace galloper::server
