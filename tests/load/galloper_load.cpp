// galloper-load: how long a turn result takes to reach many spectators.
//
// One process, one io_context, one thread: every connection is a coroutine on
// a real WebSocket speaking protocol v1 (proto/galloper/v1/protocol.proto),
// as a browser would. The tool
//   1. creates a game (a bundled scenario) and joins its umpire;
//   2. connects --connections spectators with the game's spectator token
//      (Hello, then JoinGame), spread over source addresses 127.0.0.2,
//      127.0.0.3, ... --per-source each, so the server's per-address cap
//      (--max-connections-per-ip, 64 by default) stays as it is;
//   3. --steps times: the open step is made to resolve, as players would
//      (--drive lock, the default: the umpire locks each owing seat with its
//      defaults, LockAnswers with `seat`) or as an umpire would (--drive
//      force: UmpireAction ForceResolve), and every spectator's StepResolved
//      for that step is timed from the moment the umpire's connection received
//      the ack of the request that completed the step (the last AnswersLocked,
//      or UmpireDone). The server sends no resolution time of its own; it acks
//      once the lock or force is stored, just before the step's own commit and
//      fan-out, so this start is the closest the wire shows. All times are
//      this process's steady clock (loopback only). The time from the step's
//      first request (resolution and storage included) is reported too.
// It prints count, p50, p95, p99 and max, how many spectators received each
// result, and exits 1 if any spectator missed a result or p95 exceeds
// --p95-max-ms. Only loopback addresses are accepted: anything else is
// refused before a packet is sent.
//
// Exit codes: 0 ok; 1 a result was missed or the p95 target was exceeded;
// 2 bad usage (including a non-loopback address); 3 the run could not be set
// up or did not finish within --timeout.
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "galloper/v1/protocol.pb.h"

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace v1 = galloper::v1;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using net::awaitable;
using net::use_awaitable;
using WsStream = websocket::stream<beast::tcp_stream>;

constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitSetup = 3;

// The address to connect to, if it is a loopback address; else why not.
// Names other than "localhost" are never looked up.
std::optional<net::ip::address> loopback_address(std::string host, std::string& why) {
  if (host == "localhost") host = "127.0.0.1";
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  beast::error_code ec;
  const auto address = net::ip::make_address(host, ec);
  if (ec) {
    why = "'" + host + "' is not an IP address (galloper-load looks up no names but localhost)";
    return std::nullopt;
  }
  if (!address.is_loopback()) {
    why = "'" + host + "' is not a loopback address: galloper-load only connects to 127.0.0.0/8 or ::1 on this machine";
    return std::nullopt;
  }
  return address;
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// Nearest-rank percentile of sorted values.
double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  auto rank = static_cast<std::size_t>(p / 100.0 * static_cast<double>(sorted.size()) + 0.999999);
  rank = std::clamp<std::size_t>(rank, 1, sorted.size());
  return sorted[rank - 1];
}

std::string fixed(double v, int digits = 1) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << v;
  return out.str();
}

// The step of a StepResolved, read straight off the wire without decoding the
// view: the field numbers come from the generated code, so this is the schema's.
// Nothing if the frame is not a StepResolved.
std::optional<std::uint64_t> peek_step_resolved(const void* data, std::size_t size) {
  using google::protobuf::internal::WireFormatLite;
  google::protobuf::io::CodedInputStream in(static_cast<const std::uint8_t*>(data), static_cast<int>(size));
  for (std::uint32_t tag = in.ReadTag(); tag != 0; tag = in.ReadTag()) {
    if (WireFormatLite::GetTagFieldNumber(tag) == v1::Envelope::kStepResolvedFieldNumber &&
        WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
      std::uint32_t length = 0;
      if (!in.ReadVarint32(&length)) return std::nullopt;
      in.PushLimit(static_cast<int>(length));
      for (std::uint32_t inner = in.ReadTag(); inner != 0; inner = in.ReadTag()) {
        if (WireFormatLite::GetTagFieldNumber(inner) == v1::StepResolved::kStepFieldNumber &&
            WireFormatLite::GetTagWireType(inner) == WireFormatLite::WIRETYPE_VARINT) {
          std::uint64_t step = 0;
          if (!in.ReadVarint64(&step)) return std::nullopt;
          return step;
        }
        if (!WireFormatLite::SkipField(&in, inner)) return std::nullopt;
      }
      return 0;  // proto3: step 0 is not on the wire
    }
    if (!WireFormatLite::SkipField(&in, tag)) return std::nullopt;
  }
  return std::nullopt;
}

struct Options {
  std::string host = "127.0.0.1";
  unsigned short port = 0;
  std::size_t connections = 5000;
  unsigned steps = 20;
  unsigned timeout_s = 300;
  unsigned step_timeout_s = 30;
  double p95_max_ms = 0;  // 0: no target
  std::size_t per_source = 64;
  std::size_t connect_concurrency = 200;
  std::string scenario = "demo";
  std::string drive = "lock";
  unsigned spectator_delay = 0;
};

// One resolved step as the spectators saw it.
struct StepRecord {
  std::uint64_t step = 0;
  Clock::time_point sent{}, acked{};
  bool has_ack = false;
  std::vector<Clock::time_point> received;  // per spectator; epoch: not received
  std::size_t count = 0;
};

struct Reply {
  Clock::time_point at{};
  std::optional<std::string> error;
};

struct Run {
  Run(Options o, net::io_context& context, tcp::endpoint endpoint)
      : opt(std::move(o)), ioc(context), server(std::move(endpoint)) {}

  Options opt;
  net::io_context& ioc;
  tcp::endpoint server;
  std::vector<net::ip::address> sources;  // by connection: [0] for the control connections

  std::string game_id;
  std::string umpire_token, spectator_token;

  std::size_t joined = 0, failed = 0, in_setup = 0;
  std::vector<std::string> setup_errors;
  bool stopping = false;
  bool done = false;
  int exit_code = kExitSetup;
  std::string fatal;  // why the run stopped early

  std::map<std::uint64_t, StepRecord> steps;
  std::size_t full_decodes = 0;
  std::size_t frames_during_steps = 0;  // every frame any spectator received once the steps began  // spectator 0 decodes every StepResolved in full as a check
  std::vector<std::string> spectator_problems;

  // The umpire's side.
  std::uint64_t open_step = 0;
  bool ended = false;
  std::map<std::uint64_t, bool> umpire_saw;  // StepResolved reached the umpire
  std::map<std::uint64_t, Reply> replies;  // by correlation id
  v1::SeatStatus seat_status;               // the newest the umpire was sent
  std::uint64_t next_id = 100;
  std::size_t forced_steps = 0;             // --drive lock: steps a seat could not lock by default

  Clock::time_point steps_started{};
  double cpu_at_steps = 0;

  void fail(std::string why) {
    if (fatal.empty()) fatal = std::move(why);
  }

  StepRecord& record(std::uint64_t step) {
    auto& r = steps[step];
    if (r.received.empty()) {
      r.step = step;
      r.received.assign(opt.connections, Clock::time_point{});
    }
    return r;
  }
};

// This process's CPU time (user + system), to tell whether the client itself was the bottleneck.
double cpu_seconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return sec(usage.ru_utime) + sec(usage.ru_stime);
}

awaitable<void> sleep_for(std::chrono::milliseconds d) {
  net::steady_timer t(co_await net::this_coro::executor);
  t.expires_after(d);
  co_await t.async_wait(use_awaitable);
}

// Polls `ready` every millisecond (the timestamps that matter are taken in the
// readers, not here) until it holds or `deadline` passes.
awaitable<bool> wait_until(std::function<bool()> ready, Clock::time_point deadline) {
  while (!ready()) {
    if (Clock::now() >= deadline) co_return false;
    co_await sleep_for(std::chrono::milliseconds(1));
  }
  co_return true;
}

// Opens a WebSocket to the server from `source`; throws with a reason a person
// can act on (the HTTP status and body when the server refuses the upgrade).
// Over the server's per-address cap a WebSocket is refused (HTTP 429) or
// accepted and closed at once (1013, try again later), with the reason.
const char* const kCapHint =
    "; the server caps connections per address (galloper serve --max-connections-per-ip, 64 by "
    "default): lower --per-source to at most that";

awaitable<void> open(Run& run, WsStream& ws, const net::ip::address& source) {
  auto& sock = beast::get_lowest_layer(ws).socket();
  sock.open(run.server.protocol());
  sock.bind(tcp::endpoint(source, 0));
  beast::get_lowest_layer(ws).expires_after(std::chrono::seconds(30));
  co_await beast::get_lowest_layer(ws).async_connect(run.server, use_awaitable);
  beast::get_lowest_layer(ws).expires_never();
  ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
  ws.set_option(websocket::stream_base::decorator(
      [](websocket::request_type& req) { req.set(http::field::user_agent, "galloper-load"); }));
  websocket::response_type response;
  beast::error_code ec;
  std::string host = run.server.address().to_string();
  if (run.server.address().is_v6()) host = "[" + host + "]";
  co_await ws.async_handshake(response, host + ":" + std::to_string(run.server.port()), "/ws",
                              net::redirect_error(use_awaitable, ec));
  if (ec) {
    std::string why = "WebSocket handshake from " + source.to_string() + " failed: " + ec.message();
    if (response.result_int() != 0) {
      why += " (HTTP " + std::to_string(response.result_int()) + " " + response.body() + ")";
    }
    if (response.result() == http::status::too_many_requests) why += kCapHint;
    throw std::runtime_error(why);
  }
  ws.binary(true);
  ws.read_message_max(64 * 1024 * 1024);
}

awaitable<void> send_envelope(WsStream& ws, const v1::Envelope& envelope) {
  const std::string bytes = envelope.SerializeAsString();
  co_await ws.async_write(net::buffer(bytes), use_awaitable);
}

awaitable<v1::Envelope> receive_envelope(WsStream& ws, beast::flat_buffer& buffer) {
  buffer.clear();
  beast::error_code ec;
  co_await ws.async_read(buffer, net::redirect_error(use_awaitable, ec));
  if (ec == websocket::error::closed) {
    const auto& closed = ws.reason();
    std::string why = "the server closed the connection (" + std::to_string(closed.code) +
                      (closed.reason.empty() ? "" : " " + std::string(closed.reason.c_str())) + ")";
    if (closed.code == websocket::close_code::try_again_later) why += kCapHint;
    throw std::runtime_error(why);
  }
  if (ec) throw boost::system::system_error(ec);
  v1::Envelope env;
  const auto data = buffer.cdata();
  if (!env.ParseFromArray(data.data(), static_cast<int>(data.size()))) {
    throw std::runtime_error("the server sent a frame that is not a v1 Envelope");
  }
  co_return env;
}

// A request and its reply (pushes before it are skipped); throws on an Error.
awaitable<v1::Envelope> call(WsStream& ws, beast::flat_buffer& buffer, v1::Envelope request, std::uint64_t id,
                             const std::string& what) {
  request.set_correlation_id(id);
  co_await send_envelope(ws, request);
  for (;;) {
    auto reply = co_await receive_envelope(ws, buffer);
    if (reply.correlation_id() != id) continue;
    if (reply.has_error()) {
      throw std::runtime_error(what + " refused: " + v1::ErrorCode_Name(reply.error().code()) + ": " +
                               reply.error().message());
    }
    co_return reply;
  }
}

awaitable<void> hello(WsStream& ws, beast::flat_buffer& buffer) {
  v1::Envelope e;
  e.mutable_hello()->mutable_protocol()->set_major(1);
  e.mutable_hello()->mutable_protocol()->set_minor(1);
  e.mutable_hello()->set_client_name("galloper-load");
  auto reply = co_await call(ws, buffer, std::move(e), 1, "Hello");
  if (!reply.has_welcome()) throw std::runtime_error("no Welcome after Hello");
}

awaitable<v1::Envelope> join(Run& run, WsStream& ws, beast::flat_buffer& buffer, const std::string& token) {
  v1::Envelope e;
  e.mutable_join_game()->set_game_id(run.game_id);
  e.mutable_join_game()->set_token(token);
  auto reply = co_await call(ws, buffer, std::move(e), 2, "JoinGame");
  if (!reply.has_joined()) throw std::runtime_error("no Joined after JoinGame");
  co_return reply;
}

// Creates the game on a connection of its own, closed afterwards.
awaitable<void> create_game(Run& run) {
  WsStream ws(co_await net::this_coro::executor);
  beast::flat_buffer buffer;
  co_await open(run, ws, run.sources.at(0));
  co_await hello(ws, buffer);
  v1::Envelope e;
  e.mutable_create_game()->set_scenario_name(run.opt.scenario);
  e.mutable_create_game()->set_title("galloper-load");
  e.mutable_create_game()->mutable_settings()->set_spectator_delay_turns(run.opt.spectator_delay);
  auto reply = co_await call(ws, buffer, std::move(e), 3, "CreateGame");
  const auto& created = reply.game_created();
  run.game_id = created.game_id();
  for (const auto& invite : created.invites()) {
    if (invite.seat() == "umpire") run.umpire_token = invite.token();
  }
  run.spectator_token = created.spectators().token();  // the spectators' link is not a seat's invite
  if (run.umpire_token.empty() || run.spectator_token.empty()) {
    throw std::runtime_error("GameCreated carried no umpire or spectator invite");
  }
  co_await ws.async_close(websocket::close_code::normal, use_awaitable);
}

// One spectator: connect, Hello, JoinGame with the spectator token, then read
// until the run stops, timing each StepResolved.
awaitable<void> spectator(Run& run, std::size_t index) {
  auto ws = std::make_unique<WsStream>(co_await net::this_coro::executor);
  beast::flat_buffer buffer;
  try {
    co_await open(run, *ws, run.sources.at(index + 1));
    co_await hello(*ws, buffer);
    auto joined = co_await join(run, *ws, buffer, run.spectator_token);
    if (joined.joined().seat() != "spectator") {
      throw std::runtime_error("joined as '" + joined.joined().seat() + "', not as a spectator");
    }
  } catch (const std::exception& e) {
    --run.in_setup;
    ++run.failed;
    if (run.setup_errors.size() < 5) run.setup_errors.push_back("spectator " + std::to_string(index) + ": " + e.what());
    co_return;
  }
  --run.in_setup;
  ++run.joined;
  try {
    for (;;) {
      buffer.clear();
      co_await ws->async_read(buffer, use_awaitable);
      const auto now = Clock::now();
      if (run.steps_started != Clock::time_point{}) ++run.frames_during_steps;
      const auto data = buffer.cdata();
      const auto step = peek_step_resolved(data.data(), data.size());
      if (!step) continue;
      auto& rec = run.record(*step);
      if (rec.received[index] == Clock::time_point{}) {
        rec.received[index] = now;
        ++rec.count;
      }
      if (index == 0) {  // the peek agrees with a full decode, and the view is a spectator's
        v1::Envelope env;
        if (!env.ParseFromArray(data.data(), static_cast<int>(data.size())) || env.step_resolved().step() != *step ||
            env.step_resolved().view().seat() != "spectator") {
          run.spectator_problems.push_back("step " + std::to_string(*step) +
                                           ": the full decode disagrees with the peek or is not a spectator's view");
        } else {
          ++run.full_decodes;
        }
      }
    }
  } catch (const std::exception& e) {
    if (!run.stopping) {
      if (run.spectator_problems.size() < 5) {
        run.spectator_problems.push_back("spectator " + std::to_string(index) + " lost its connection: " + e.what());
      }
    }
  }
}

// The umpire's pushes and replies, as they come.
awaitable<void> umpire_reader(Run& run, std::shared_ptr<WsStream> stream) {
  auto& ws = *stream;
  beast::flat_buffer buffer;
  try {
    for (;;) {
      auto env = co_await receive_envelope(ws, buffer);
      const auto now = Clock::now();
      if (env.correlation_id() != 0) {
        Reply& reply = run.replies[env.correlation_id()];
        reply.at = now;
        if (env.has_error()) reply.error = v1::ErrorCode_Name(env.error().code()) + ": " + env.error().message();
      }
      if (env.has_seat_status()) {
        run.seat_status = env.seat_status();
      }
      if (env.has_step_resolved()) {
        run.umpire_saw[env.step_resolved().step()] = true;
        run.open_step = env.step_resolved().view().step();
        run.ended = env.step_resolved().view().ended();
      }
    }
  } catch (const std::exception& e) {
    if (!run.stopping) run.fail(std::string("the umpire's connection was lost: ") + e.what());
  }
}

void report(Run& run, Clock::duration setup_time, const std::string& load_before);

// Sends a request on the umpire's connection and waits for its reply.
awaitable<std::optional<Reply>> umpire_call(Run& run, WsStream& umpire, v1::Envelope request,
                                            Clock::time_point deadline) {
  const auto id = ++run.next_id;
  request.set_correlation_id(id);
  co_await send_envelope(umpire, request);
  if (!co_await wait_until([&] { return run.replies.contains(id); }, deadline)) co_return std::nullopt;
  co_return run.replies[id];
}

// Makes the open step resolve: --drive lock has the umpire lock every owing
// seat in turn (LockAnswers for that seat: unanswered decisions take their
// defaults), as players locking would; --drive force (or a step with a
// decision that has no default) forces it. Returns when the resolving request
// was acknowledged (the last AnswersLocked, or UmpireDone), or nothing and why.
awaitable<std::optional<Clock::time_point>> start_resolution(Run& run, WsStream& umpire, std::uint64_t step,
                                                             unsigned n, Clock::time_point deadline,
                                                             std::string& why) {
  if (run.opt.drive == "lock") {
    // The seat status for this step says who owes.
    if (!co_await wait_until([&] { return run.seat_status.step() == step && run.seat_status.owing_size() > 0; },
                             deadline)) {
      why = "no seat status with owing seats came for step " + std::to_string(step);
      co_return std::nullopt;
    }
    std::vector<std::string> to_lock;
    for (const auto& seat : run.seat_status.owing()) {
      if (std::find(run.seat_status.locked().begin(), run.seat_status.locked().end(), seat) ==
          run.seat_status.locked().end()) {
        to_lock.push_back(seat);
      }
    }
    std::optional<Clock::time_point> last;
    bool refused = false;
    for (const auto& seat : to_lock) {
      v1::Envelope lock;
      lock.mutable_lock_answers()->set_game_id(run.game_id);
      lock.mutable_lock_answers()->set_step(step);
      lock.mutable_lock_answers()->set_seat(seat);
      auto reply = co_await umpire_call(run, umpire, std::move(lock), deadline);
      if (!reply) {
        why = "the umpire's LockAnswers for " + seat + " at step " + std::to_string(step) + " was not answered";
        co_return std::nullopt;
      }
      if (reply->error) {  // e.g. a decision with no default: force this step instead
        refused = true;
        break;
      }
      last = reply->at;
    }
    if (!refused && last) co_return last;
    ++run.forced_steps;
  }
  v1::Envelope force;
  auto* action = force.mutable_umpire_action();
  action->set_game_id(run.game_id);
  action->set_reason("galloper-load: step " + std::to_string(n));
  action->mutable_force_resolve();
  auto reply = co_await umpire_call(run, umpire, std::move(force), deadline);
  if (!reply || reply->error) {
    why = "the umpire's ForceResolve of step " + std::to_string(step) + " was not acknowledged" +
          (reply ? ": " + *reply->error : "");
    co_return std::nullopt;
  }
  co_return reply->at;
}

awaitable<void> drive(Run& run) {
  const auto start = Clock::now();
  const std::string load_before = load_average();
  try {
    co_await create_game(run);
  } catch (const std::exception& e) {
    run.fail(std::string("creating the game failed: ") + e.what());
    run.done = true;
    run.ioc.stop();
    co_return;
  }
  // Shared with its reader, which outlives this coroutine.
  auto umpire_ws = std::make_shared<WsStream>(co_await net::this_coro::executor);
  auto& umpire = *umpire_ws;
  beast::flat_buffer buffer;
  try {
    co_await open(run, umpire, run.sources.at(0));
    co_await hello(umpire, buffer);
    auto joined = co_await join(run, umpire, buffer, run.umpire_token);
    run.open_step = joined.joined().view().step();
  } catch (const std::exception& e) {
    run.fail(std::string("the umpire could not join: ") + e.what());
    run.done = true;
    run.ioc.stop();
    co_return;
  }
  net::co_spawn(run.ioc, umpire_reader(run, umpire_ws), net::detached);

  // Spectators, at most --connect-concurrency connecting at once.
  for (std::size_t i = 0; i < run.opt.connections; ++i) {
    while (run.in_setup >= run.opt.connect_concurrency) co_await sleep_for(std::chrono::milliseconds(1));
    ++run.in_setup;
    net::co_spawn(run.ioc, spectator(run, i), net::detached);
  }
  co_await wait_until([&] { return run.in_setup == 0; }, Clock::time_point::max());
  const auto setup_time = Clock::now() - start;
  if (run.failed > 0) {
    run.fail(std::to_string(run.failed) + " of " + std::to_string(run.opt.connections) +
             " spectators could not join");
    run.done = true;
    run.ioc.stop();
    co_return;
  }
  std::cout << "connected and joined " << run.joined << " spectators in " << fixed(ms(setup_time) / 1000.0)
            << " s from " << std::set<net::ip::address>(run.sources.begin() + 1, run.sources.end()).size()
            << " source address(es), " << run.opt.per_source << " each at most" << std::endl;
  // Let the join replies and history settle before the first step.
  co_await sleep_for(std::chrono::milliseconds(200));

  run.steps_started = Clock::now();
  run.cpu_at_steps = cpu_seconds();
  for (unsigned n = 0; n < run.opt.steps; ++n) {
    if (run.ended) {
      std::cout << "the game ended after " << n << " steps" << std::endl;
      break;
    }
    const auto step = run.open_step;
    auto& rec = run.record(step);
    rec.sent = Clock::now();
    const auto deadline = rec.sent + std::chrono::seconds(run.opt.step_timeout_s);
    std::string why;
    const auto started = co_await start_resolution(run, umpire, step, n + 1, deadline, why);
    if (!started) {
      run.fail(why);
      break;
    }
    rec.acked = *started;
    rec.has_ack = true;
    co_await wait_until(
        [&] { return run.umpire_saw.contains(step) && rec.count == run.opt.connections; }, deadline);
    if (!run.umpire_saw.contains(step)) {
      run.fail("step " + std::to_string(step) + " did not resolve within --step-timeout");
      break;
    }
  }
  run.stopping = true;
  report(run, setup_time, load_before);
  run.done = true;
  run.ioc.stop();  // closes nothing gracefully: the server sees the connections go
}

void report(Run& run, Clock::duration, const std::string& load_before) {
  std::vector<double> from_ack, from_sent;
  std::size_t missed = 0, measured_steps = 0;
  const std::string start_name = run.opt.drive == "lock" ? "the last lock's ack" : "UmpireDone";
  if (run.opt.drive == "lock") {
    std::cout << "start of each measurement: the umpire's AnswersLocked for the last owing seat it locked (or, "
                 "for a step it forced, UmpireDone), as this process received it (steady clock; the server "
                 "sends no resolution time)\n";
  } else {
    std::cout << "start of each measurement: the umpire's UmpireDone for its ForceResolve, as this process "
                 "received it (steady clock; the server sends no resolution time)\n";
  }
  std::cout << "  step   received      p50 ms   p95 ms   max ms   (from " << start_name << ")\n";
  for (auto& [step, rec] : run.steps) {
    if (!rec.has_ack) continue;
    ++measured_steps;
    std::vector<double> mine;
    for (const auto t : rec.received) {
      if (t == Clock::time_point{}) {
        ++missed;
        continue;
      }
      mine.push_back(ms(t - rec.acked));
      from_sent.push_back(ms(t - rec.sent));
    }
    from_ack.insert(from_ack.end(), mine.begin(), mine.end());
    std::sort(mine.begin(), mine.end());
    std::cout << "  " << std::setw(4) << step << "   " << std::setw(5) << rec.count << "/" << std::setw(5)
              << std::left << run.opt.connections << std::right << "  " << std::setw(7) << fixed(percentile(mine, 50))
              << "  " << std::setw(7) << fixed(percentile(mine, 95)) << "  " << std::setw(7)
              << fixed(mine.empty() ? 0 : mine.back()) << "\n";
  }
  std::sort(from_ack.begin(), from_ack.end());
  std::sort(from_sent.begin(), from_sent.end());
  auto line = [](const std::string& what, const std::vector<double>& v) {
    std::cout << what << ": count " << v.size() << ", p50 " << fixed(percentile(v, 50)) << " ms, p95 "
              << fixed(percentile(v, 95)) << " ms, p99 " << fixed(percentile(v, 99)) << " ms, max "
              << fixed(v.empty() ? 0 : v.back()) << " ms\n";
  };
  line(("turn result to spectators, from " + start_name).c_str(), from_ack);
  line(run.opt.drive == "lock" ? "turn result to spectators, from the step's first request sent (locks, resolution "
                                 "and storage included)"
                               : "turn result to spectators, from ForceResolve sent (resolution and storage included)",
       from_sent);
  if (run.forced_steps > 0) std::cout << "steps forced (a seat could not lock by default): " << run.forced_steps << "\n";
  if (measured_steps > 0) {
    std::cout << "frames each spectator received per step: "
              << fixed(static_cast<double>(run.frames_during_steps) /
                           static_cast<double>(measured_steps * run.opt.connections), 1)
              << "\n";
  }
  std::cout << "steps measured: " << measured_steps << " of " << run.opt.steps << "; spectators: "
            << run.opt.connections << "; results missed: " << missed << "\n";
  std::cout << "spectator 0 decoded " << run.full_decodes << " StepResolved in full (a spectator's view each)\n";
  for (const auto& p : run.spectator_problems) std::cout << "problem: " << p << "\n";
  if (run.steps_started != Clock::time_point{}) {
    std::cout << "this client's CPU during the steps: " << fixed(cpu_seconds() - run.cpu_at_steps, 2) << " s in "
              << fixed(ms(Clock::now() - run.steps_started) / 1000.0, 2) << " s (one thread)\n";
  }
  std::cout << "load average: before " << load_before << ", after " << load_average() << "\n";

  const double p95 = percentile(from_ack, 95);
  bool ok = missed == 0 && run.fatal.empty() && run.spectator_problems.empty() && measured_steps > 0;
  std::string verdict;
  if (!run.fatal.empty()) verdict += " " + run.fatal + ";";
  if (measured_steps == 0) verdict += " no step was measured;";
  if (missed > 0) verdict += " " + std::to_string(missed) + " results did not reach their spectator;";
  if (!run.spectator_problems.empty()) verdict += " spectators had problems;";
  if (run.opt.p95_max_ms > 0 && p95 > run.opt.p95_max_ms) {
    ok = false;
    verdict += " p95 " + fixed(p95) + " ms exceeds --p95-max-ms " + fixed(run.opt.p95_max_ms) + ";";
  }
  if (ok) {
    std::cout << "result: ok"
              << (run.opt.p95_max_ms > 0 ? " (p95 " + fixed(p95) + " ms <= " + fixed(run.opt.p95_max_ms) + " ms)" : "")
              << std::endl;
    run.exit_code = 0;
  } else {
    std::cout << "result: FAILED:" << verdict << std::endl;
    run.exit_code = kExitFailed;
  }
}

// Enough descriptors for every connection; false (with why) if the hard limit is too low.
bool raise_fd_limit(std::size_t needed, std::string& why) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return true;
  if (limit.rlim_cur >= needed) return true;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < needed) {
    why = std::to_string(needed) + " file descriptors are needed and the hard limit is " +
          std::to_string(limit.rlim_max) + " (ulimit -Hn); lower --connections";
    return false;
  }
  limit.rlim_cur = needed;
  if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) {
    why = "could not raise the file descriptor limit to " + std::to_string(needed);
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  CLI::App app{
      "galloper-load: times a turn result reaching many spectators of one game.\n"
      "Creates a game on a running `galloper serve`, connects --connections spectators over real WebSockets\n"
      "(one process, one thread, asynchronous), has the umpire resolve --steps steps (--drive), and reports how\n"
      "long each StepResolved took to reach each spectator from the ack of the request that completed the\n"
      "step: count, p50, p95, p99, max, and how many spectators received each result.\n"
      "Loopback addresses only. Exit 0 ok, 1 a result missed or --p95-max-ms exceeded, 2 usage, 3 setup or\n"
      "timeout. Spectators come from 127.0.0.2, 127.0.0.3, ... (--per-source each), the umpire from 127.0.0.1."};
  app.add_option("--host", opt.host, "The server's address: 127.0.0.0/8, ::1 or localhost")->capture_default_str();
  app.add_option("--port", opt.port, "The server's port")->required()->check(CLI::Range(1, 65535));
  app.add_option("--connections", opt.connections, "Spectators to connect")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  app.add_option("--steps", opt.steps, "Steps the umpire forces (each one measured)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 10000u));
  app.add_option("--timeout", opt.timeout_s, "Seconds the whole run may take before it is stopped (exit 3)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 86400u));
  app.add_option("--step-timeout", opt.step_timeout_s,
                 "Seconds to wait for one step's result to reach every spectator")
      ->capture_default_str()
      ->check(CLI::Range(1u, 3600u));
  app.add_option("--p95-max-ms", opt.p95_max_ms, "Fail (exit 1) if the p95 (from the ack) exceeds this")
      ->check(CLI::PositiveNumber);
  app.add_option("--per-source", opt.per_source,
                 "Spectators per source address (keep it at or under the server's --max-connections-per-ip)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  app.add_option("--connect-concurrency", opt.connect_concurrency, "Spectators connecting at the same time")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{10000}));
  app.add_option("--drive", opt.drive,
                 "How each step resolves: lock (the umpire locks every owing seat with its defaults, as players "
                 "would; the start is the last lock's ack) or force (UmpireAction ForceResolve; the start is UmpireDone)")
      ->capture_default_str()
      ->check(CLI::IsMember({"lock", "force"}));
  app.add_option("--scenario", opt.scenario, "Bundled scenario of the game")->capture_default_str();
  app.add_option("--spectator-delay", opt.spectator_delay, "The game's spectator delay, in turns")
      ->capture_default_str()
      ->check(CLI::Range(0u, 100u));
  CLI11_PARSE(app, argc, argv);

  std::string why;
  const auto address = loopback_address(opt.host, why);
  if (!address) {
    std::cerr << "galloper-load: --host " << why << "\n";
    return kExitUsage;
  }
  net::io_context ioc(1);
  Run run(opt, ioc, tcp::endpoint(*address, opt.port));

  // Source addresses: 127.0.0.1 for the umpire and the game's creator, then
  // one address per --per-source spectators. ::1 is the only IPv6 loopback.
  run.sources.push_back(*address);
  for (std::size_t i = 0; i < opt.connections; ++i) {
    if (address->is_v6()) {
      if (opt.connections > opt.per_source) {
        std::cerr << "galloper-load: IPv6 has one loopback address (::1), so all " << opt.connections
                  << " spectators come from it: give --per-source " << opt.connections
                  << " (and the server --max-connections-per-ip above it), or use 127.0.0.1\n";
        return kExitUsage;
      }
      run.sources.push_back(*address);
      continue;
    }
    const auto source = 0x7F000002u + static_cast<std::uint32_t>(i / opt.per_source);
    if (source >= 0x7FFFFFFFu) {
      std::cerr << "galloper-load: too many source addresses; raise --per-source\n";
      return kExitUsage;
    }
    run.sources.push_back(net::ip::address_v4(source));
  }
  run.sources.front() = address->is_v6() ? *address : net::ip::address(net::ip::address_v4(0x7F000001u));
  if (!raise_fd_limit(opt.connections + 64, why)) {
    std::cerr << "galloper-load: " << why << "\n";
    return kExitUsage;
  }

  std::cout << "galloper-load: " << opt.connections << " spectators, " << opt.steps << " steps, server "
            << run.server << ", scenario " << opt.scenario << ", spectator delay " << opt.spectator_delay
            << " turn(s), load average " << load_average() << std::endl;
  net::co_spawn(ioc, drive(run), [&](std::exception_ptr e) {
    if (!e) return;
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      run.fail(std::string("the run failed: ") + ex.what());
    }
    run.done = true;
    ioc.stop();
  });
  ioc.run_for(std::chrono::seconds(opt.timeout_s));
  if (!run.done) {
    std::cout << "result: FAILED: the run did not finish within --timeout " << opt.timeout_s << " s ("
              << run.joined << " of " << opt.connections << " spectators joined)" << std::endl;
    return kExitSetup;
  }
  if (run.exit_code != 0 && !run.fatal.empty() && run.steps.empty()) {
    std::cout << "result: FAILED: " << run.fatal << std::endl;
    for (const auto& e : run.setup_errors) std::cout << "  " << e << std::endl;
    return kExitSetup;
  }
  return run.exit_code;
}
