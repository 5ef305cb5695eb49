// One blocking request per attempt through the HTTP core (transfer.h), on a
// kept-alive connection borrowed from the shared pool; the body is fed
// through the SSE parser (or kept whole). The retry loop asks the pure retry
// policy what to do.
#include "protocol/http/http_client.h"

#include "protocol/http/connection_pool.h"
#include "protocol/http/transfer.h"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <random>

namespace lathe::http {
namespace {

using std::chrono::milliseconds;

constexpr size_t kMaxErrorBody = 64 * 1024;
constexpr size_t kMaxStreamHead = 512;
constexpr size_t kMaxWholeBody = 64u << 20;
constexpr size_t kNoCap = std::numeric_limits<size_t>::max();  // an event stream may go on

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// At most n bytes of text, not cutting a UTF-8 sequence.
std::string utf8Prefix(std::string_view text, size_t n) {
  if (text.size() <= n) return std::string(text);
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return std::string(text.substr(0, n)) + "...";
}

std::string describeTransport(httplib::Error error) {
  std::string what;
  switch (error) {
    case httplib::Error::Connection: what = "could not connect"; break;
    case httplib::Error::ConnectionTimeout: what = "the connection timed out"; break;
    case httplib::Error::Read: what = "the connection broke while reading the reply"; break;
    case httplib::Error::Write: what = "the request could not be sent"; break;
    case httplib::Error::SSLConnection: what = "the TLS handshake failed"; break;
    case httplib::Error::SSLLoadingCerts: what = "the system's CA certificates could not be loaded"; break;
    case httplib::Error::SSLServerVerification: what = "the server's TLS certificate could not be verified"; break;
    case httplib::Error::Compression: what = "the reply could not be decompressed"; break;
    default: what = "the request failed"; break;
  }
  return what + " (httplib: " + httplib::to_string(error) + ")";
}

Error cancelledError() { return makeError(Errc::cancelled, "The model request was cancelled."); }

}  // namespace

Result<Endpoint> parseBaseUrl(std::string_view url, const std::string& setting) {
  url = trim(url);
  auto bad = [&](const std::string& why) {
    return makeError(Errc::invalid_params, setting + " \"" + std::string(url) + "\" " + why);
  };
  size_t sep = url.find("://");
  if (sep == std::string_view::npos) return bad("has no scheme: use http:// or https://");
  std::string scheme(url.substr(0, sep));
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (scheme != "http" && scheme != "https") return bad("must start with http:// or https://");
  std::string_view rest = url.substr(sep + 3);
  size_t slash = rest.find_first_of("/?#");
  std::string_view hostPort = rest.substr(0, slash);
  if (hostPort.empty()) return bad("has no host");
  if (hostPort.find('@') != std::string_view::npos) return bad("must not carry credentials");
  std::string path(slash == std::string_view::npos ? std::string_view() : rest.substr(slash));
  if (size_t cut = path.find_first_of("?#"); cut != std::string::npos) path.resize(cut);
  while (!path.empty() && path.back() == '/') path.pop_back();
  return Endpoint{scheme + "://" + std::string(hostPort), path};
}

void cancellableSleep(milliseconds delay, const CancelToken& cancel) {
  struct Waiter {
    std::mutex mutex;
    std::condition_variable cv;
    bool woken = false;
  };
  auto waiter = std::make_shared<Waiter>();
  auto registration = cancel.onCancel([waiter] {
    std::lock_guard lock(waiter->mutex);
    waiter->woken = true;
    waiter->cv.notify_all();
  });
  std::unique_lock lock(waiter->mutex);
  waiter->cv.wait_for(lock, delay, [&] { return waiter->woken; });
}

// One HTTP exchange and how it ended.
struct Client::Attempt {
  enum class Kind { success, cancelled, retry, fail };
  Kind kind = Kind::success;
  Error error;
  std::optional<milliseconds> retryAfter;
  bool silent = false;  // the server said nothing at all for a whole read timeout

  static Attempt fail(Error e) { return {Kind::fail, std::move(e), std::nullopt}; }
  static Attempt retry(Error e, std::optional<milliseconds> after = std::nullopt) {
    return {Kind::retry, std::move(e), after};
  }
  static Attempt cancelled() { return {Kind::cancelled, cancelledError(), std::nullopt}; }
  static Attempt silence(Error e) {
    Attempt a = retry(std::move(e));
    a.silent = true;
    return a;
  }
};

Client::Client(Endpoint endpoint, Options options) : endpoint_(std::move(endpoint)), options_(std::move(options)) {
  if (!options_.sleep) options_.sleep = cancellableSleep;
}

double Client::jitter() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.75, 1.25)(rng);
}

template <class Run>
Status Client::withRetries(const Run& run, const CancelToken& cancel, const RetryHook& onRetry) {
  // A server that accepts connections and then says nothing is not retried
  // for ever: silence counts against one budget across attempts.
  const milliseconds silenceBudget = options_.retry.maxSilence.count() > 0 ? options_.retry.maxSilence : options_.readTimeout;
  milliseconds silence{0};
  for (int attempt = 1;; ++attempt) {
    if (cancel.cancelled()) return cancelledError();
    Attempt outcome = run();
    if (outcome.kind == Attempt::Kind::success) return {};
    if (outcome.kind != Attempt::Kind::retry) return outcome.error;
    if (outcome.silent && (silence += options_.readTimeout) >= silenceBudget) {
      outcome.error.message += " (" + options_.apiName + " sent nothing for " + inSeconds(silence) +
                               " in all; giving up instead of waiting again)";
      return outcome.error;
    }
    RetryDecision decision = decideRetry(options_.retry, attempt, true, outcome.retryAfter, jitter());
    if (!decision.retry) {
      outcome.error.message += decision.note;
      return outcome.error;
    }
    if (onRetry) onRetry(RetryNotice{outcome.error, attempt + 1, options_.retry.maxAttempts, decision.delay});
    options_.sleep(decision.delay, cancel);
  }
}

namespace {

// How one request went.
struct Exchange {
  int status = -1;
  std::string retryAfterHeader;
  std::string contentType;
  httplib::Error error = httplib::Error::Success;
  bool ok = false;
  bool capped = false;  // the body was longer than the cap asked for
  bool silent = false;  // the server said nothing for a whole read timeout
};

// One request on a client; the receiver sees the status first, then body bytes.
Exchange sendOn(httplib::Client& client, const Endpoint& endpoint, const Client::Options& options,
                const std::string& path, const std::string& body, const char* accept, size_t maxBody,
                const CancelToken& cancel, const std::function<bool(Exchange&, std::string_view)>& onBytes) {
  Exchange ex;
  httplib::Request req;
  req.method = "POST";
  req.path = endpoint.pathPrefix + path;
  req.headers = {{"Content-Type", "application/json"}, {"Accept", accept}, {"User-Agent", "lathe"}};
  for (const auto& [name, value] : options.headers) req.headers.emplace(name, value);
  req.body = body;
  Transfer done = transfer(
      client, std::move(req), {options.connectTimeout, options.readTimeout, maxBody, options.executor},
      [&](const ResponseHead& head) {
        ex.status = head.status;
        ex.retryAfterHeader = head.header("Retry-After");
        ex.contentType = head.header("Content-Type");
        return true;
      },
      [&](std::string_view bytes) { return onBytes(ex, bytes); }, cancel);
  ex.error = done.error;
  ex.ok = done.complete;
  ex.capped = done.capped;
  ex.silent = done.silent;
  return ex;
}

// Sends one request on a kept-alive connection of the shared pool. A server
// may close an idle connection just as it is reused: a reused connection
// that fails before any answer is replaced by a new one at once, without
// counting as an attempt; a new connection's failure is the attempt's.
Exchange send(const Endpoint& endpoint, const Client::Options& options, const std::string& path,
              const std::string& body, const char* accept, size_t maxBody, const CancelToken& cancel,
              const std::function<bool(Exchange&, std::string_view)>& onBytes) {
  ConnectionPool& pool = ConnectionPool::shared();
  ConnectionPool::Borrowed borrowed = pool.borrow(endpoint.origin);
  Exchange ex = sendOn(*borrowed.client, endpoint, options, path, body, accept, maxBody, cancel, onBytes);
  const bool stale = !ex.ok && ex.status < 0 && borrowed.reused && !cancel.cancelled() &&
                     (ex.error == httplib::Error::Read || ex.error == httplib::Error::Write ||
                      ex.error == httplib::Error::Connection);
  if (stale) {
    borrowed = {ConnectionPool::newClient(endpoint.origin), false};
    ex = sendOn(*borrowed.client, endpoint, options, path, body, accept, maxBody, cancel, onBytes);
  }
  // Only a connection whose exchange ended cleanly is known to be reusable.
  if (ex.ok && !cancel.cancelled()) pool.giveBack(endpoint.origin, std::move(borrowed.client));
  return ex;
}

}  // namespace

Status Client::streamEvents(const std::string& path, const std::string& body, const StreamCallbacks& callbacks,
                            const CancelToken& cancel) {
  const std::string url = endpoint_.origin + endpoint_.pathPrefix + path.substr(0, path.find('?'));
  const std::string api = "The " + options_.apiName;
  return withRetries([&]() -> Attempt {
    if (callbacks.onAttempt) callbacks.onAttempt();
    SseParser parser;
    std::string kept;
    std::string whole;  // a JSON answer to a streaming request
    bool wholeTooLarge = false;
    bool delivered = false;
    std::optional<EventError> eventError;
    auto handle = [&](const SseEvent& event) {
      if (trim(event.data).empty()) return true;
      if (auto problem = callbacks.onEvent(event)) {
        eventError = std::move(problem);
        return false;
      }
      delivered = true;
      return !cancel.cancelled();
    };
    Exchange ex = send(endpoint_, options_, path, body, "text/event-stream", kNoCap, cancel,
                       [&](Exchange& x, std::string_view bytes) {
                         // Keeps an error body, or the start of a stream in case it has no events.
                         size_t keep = x.status != 200 ? kMaxErrorBody : kMaxStreamHead;
                         kept.append(bytes.substr(0, keep - std::min(keep, kept.size())));
                         if (x.status != 200) return true;
                         if (callbacks.onWholeBody && x.contentType.find("application/json") != std::string::npos) {
                           wholeTooLarge = whole.size() + bytes.size() > kMaxWholeBody;
                           if (!wholeTooLarge) whole.append(bytes);
                           return !wholeTooLarge;
                         }
                         for (const SseEvent& event : parser.feed(bytes)) {
                           if (!handle(event)) return false;
                         }
                         return true;
                       });
    if (cancel.cancelled()) return Attempt::cancelled();
    auto fromEvent = [&]() {
      return eventError->retryable && !delivered ? Attempt::retry(eventError->error) : Attempt::fail(eventError->error);
    };
    if (eventError) return fromEvent();
    if (ex.status == 200 && ex.ok && !whole.empty()) {
      if (auto problem = callbacks.onWholeBody(whole)) return Attempt::fail(problem->error);
      return Attempt{};
    }
    if (wholeTooLarge) return Attempt::fail(makeError(Errc::model, api + " reply from " + url + " is larger than 64 MB."));
    if (ex.status == 200 && ex.ok) {
      if (auto last = parser.finish(); last && !handle(*last)) {
        if (cancel.cancelled()) return Attempt::cancelled();
        if (eventError) return fromEvent();
      }
      if (delivered) return Attempt{};
      std::string_view head = trim(kept);
      if (head.empty() || head.front() == ':') {
        return Attempt::retry(makeError(Errc::model, api + " at " + url + " ended its reply without sending anything."));
      }
      // Not an event stream (a proxy's page, plain JSON): retrying will not help.
      return Attempt::fail(makeError(Errc::model, api + " at " + url +
                                                      " did not reply with server-sent events; it began: " +
                                                      utf8Prefix(head, 200)));
    }
    if (ex.status == 200) {  // the transport failed after the headers
      std::string why = describeTransport(ex.error);
      if (ex.silent) why = "no data arrived for " + inSeconds(options_.readTimeout) + " (httplib: Read)";
      Error broken = makeError(ex.silent ? Errc::timeout : Errc::http, api + " stream from " + url + " broke off: " + why);
      if (delivered) return Attempt::fail(broken);
      return ex.silent ? Attempt::silence(broken) : Attempt::retry(broken);
    }
    if (ex.status < 0) {
      Errc code = ex.error == httplib::Error::ConnectionTimeout || ex.silent ? Errc::timeout : Errc::http;
      Error unreachable = makeError(code, "Could not reach the " + options_.apiName + " at " + url + ": " +
                                              describeTransport(ex.error));
      return ex.silent ? Attempt::silence(unreachable) : Attempt::retry(unreachable);
    }
    StatusError problem = callbacks.describeStatus(ex.status, kept);
    std::optional<milliseconds> after = parseRetryAfter(ex.retryAfterHeader);
    if (!after) after = problem.retryAfter;
    if (retryableStatus(ex.status)) return Attempt::retry(std::move(problem.error), after);
    return Attempt::fail(std::move(problem.error));
  }, cancel, callbacks.onRetry);
}

Result<std::string> Client::post(const std::string& path, const std::string& body,
                                 const DescribeStatus& describeStatus, const CancelToken& cancel) {
  const std::string url = endpoint_.origin + endpoint_.pathPrefix + path.substr(0, path.find('?'));
  std::string answer;
  Status status = withRetries([&]() -> Attempt {
    answer.clear();
    Exchange ex = send(endpoint_, options_, path, body, "application/json", kMaxWholeBody, cancel,
                       [&](Exchange&, std::string_view bytes) {
                         answer.append(bytes);
                         return true;
                       });
    if (cancel.cancelled()) return Attempt::cancelled();
    if (ex.capped) return Attempt::fail(makeError(Errc::model, "The " + options_.apiName + " reply from " + url +
                                                                  " is larger than 64 MB."));
    if (ex.status == 200 && ex.ok) return Attempt{};
    if (ex.status < 0 || ex.status == 200) {
      Errc code = ex.error == httplib::Error::ConnectionTimeout ? Errc::timeout : Errc::http;
      return Attempt::retry(makeError(code, "Could not reach the " + options_.apiName + " at " + url + ": " +
                                                describeTransport(ex.error)));
    }
    StatusError problem = describeStatus(ex.status, std::string_view(answer).substr(0, kMaxErrorBody));
    std::optional<milliseconds> after = parseRetryAfter(ex.retryAfterHeader);
    if (!after) after = problem.retryAfter;
    if (retryableStatus(ex.status)) return Attempt::retry(std::move(problem.error), after);
    return Attempt::fail(std::move(problem.error));
  }, cancel, nullptr);
  if (!status) return status.error();
  return answer;
}

}  // namespace lathe::http
