#include "server/src/metrics.hpp"

#include <gtest/gtest.h>

namespace galloper::server {
namespace {

TEST(Metrics, RendersPrometheusText) {
  Metrics m;
  m.connections = 3;
  m.messages_in = 10;
  m.errors = 2;
  const auto text = m.render();
  EXPECT_NE(text.find("# TYPE galloper_connections gauge\ngalloper_connections 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("# TYPE galloper_messages_in_total counter\ngalloper_messages_in_total 10\n"),
            std::string::npos);
  EXPECT_NE(text.find("galloper_errors_total 2\n"), std::string::npos);
}

}  // namespace
}  // namespace galloper::server
