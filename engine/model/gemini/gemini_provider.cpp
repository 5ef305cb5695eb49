// Gemini over HTTP: one blocking cpp-httplib request per attempt, its body fed
// through the SSE parser, retries with backoff while nothing was delivered,
// cancellation by stopping the client from the cancelling thread. stream()
// runs on the caller's (worker) thread; onChunk is called there too.
#include "engine/model/gemini/gemini_provider.h"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <ctime>
#include <iomanip>
#include <locale>
#include <mutex>
#include <random>
#include <sstream>

#include "engine/model/gemini/gemini_wire.h"
#include "protocol/http/sse.h"

namespace lathe::engine {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr size_t kMaxErrorBody = 64 * 1024;
constexpr size_t kMaxStreamHead = 512;

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

// The base URL split into what httplib connects to and a path prefix.
struct Endpoint {
  std::string origin;      // "https://host[:port]"
  std::string pathPrefix;  // "" or "/some/prefix"
};

Result<Endpoint> parseBaseUrl(std::string_view url) {
  url = trim(url);
  auto bad = [&](const std::string& why) {
    return makeError(Errc::invalid_params,
                     "The Gemini base URL \"" + std::string(url) + "\" (GOOGLE_GEMINI_BASE_URL) " + why);
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

// Retry-After: delta-seconds or an HTTP date.
std::optional<milliseconds> parseRetryAfter(std::string_view value) {
  value = trim(value);
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    if (value.size() > 9) return milliseconds(std::chrono::hours(24 * 365));
    return std::chrono::seconds(std::stol(std::string(value)));
  }
  std::tm tm{};
  std::istringstream in{std::string(value)};
  in.imbue(std::locale::classic());
  in >> std::get_time(&tm, "%a, %d %b %Y %H:%M:%S");
  if (in.fail()) return std::nullopt;
  auto at = std::chrono::system_clock::from_time_t(timegm(&tm));
  auto delta = std::chrono::duration_cast<milliseconds>(at - std::chrono::system_clock::now());
  return std::max(delta, milliseconds(0));
}

std::string inSeconds(milliseconds d) {
  auto s = (d.count() + 999) / 1000;
  return std::to_string(s) + (s == 1 ? " second" : " seconds");
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

// Waits on a condition variable that a cancellation wakes.
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

// Lets a cancel callback, on another thread, stop a client that may be gone:
// the attempt clears the pointer under the mutex before the client dies.
struct StopSwitch {
  std::mutex mutex;
  httplib::Client* client = nullptr;
};

Error cancelledError() { return makeError(Errc::cancelled, "The model request was cancelled."); }

// How one HTTP attempt ended.
struct Outcome {
  enum class Kind { success, cancelled, retry, fail };
  Kind kind = Kind::success;
  Error error;
  std::optional<milliseconds> retryAfter;  // what the server asked for
};

Outcome fail(Error error) { return Outcome{Outcome::Kind::fail, std::move(error), std::nullopt}; }
Outcome retry(Error error, std::optional<milliseconds> after = std::nullopt) {
  return Outcome{Outcome::Kind::retry, std::move(error), after};
}

bool retryableStatus(int status) { return status == 429 || status >= 500; }

}  // namespace

struct GeminiProvider::Impl {
  Options options;
  std::mutex rngMutex;
  std::mt19937_64 rng{std::random_device{}()};

  milliseconds backoff(int failures) {
    double base = static_cast<double>(options.initialBackoff.count());
    for (int i = 1; i < failures && base < static_cast<double>(options.maxBackoff.count()); ++i) base *= 2;
    base = std::min(base, static_cast<double>(options.maxBackoff.count()));
    double factor;
    {
      std::lock_guard lock(rngMutex);
      factor = std::uniform_real_distribution<double>(0.75, 1.25)(rng);
    }
    auto delay = static_cast<int64_t>(base * factor);
    return std::min(milliseconds(delay), options.maxBackoff);
  }

  Outcome attempt(const Endpoint& endpoint, const std::string& path, const std::string& body,
                  const ChunkSink& onChunk, const CancelToken& cancel, ReplyAccumulator& reply);
};

Outcome GeminiProvider::Impl::attempt(const Endpoint& endpoint, const std::string& path, const std::string& body,
                                      const ChunkSink& onChunk, const CancelToken& cancel, ReplyAccumulator& reply) {
  const std::string url = endpoint.origin + path.substr(0, path.find('?'));
  httplib::Client client(endpoint.origin);
  if (!client.is_valid()) {
    return fail(makeError(Errc::invalid_params, "The Gemini base URL " + endpoint.origin + " is not usable."));
  }
  client.set_connection_timeout(options.connectTimeout);
  client.set_read_timeout(options.readTimeout);
  client.set_write_timeout(options.readTimeout);
  client.set_keep_alive(false);

  httplib::Request req;
  req.method = "POST";
  req.path = path;
  req.headers = {{"x-goog-api-key", options.apiKey},
                 {"Content-Type", "application/json"},
                 {"Accept", "text/event-stream"},
                 {"User-Agent", "lathe"}};
  req.body = body;

  int status = -1;
  std::string retryAfterHeader;
  std::string keptBody;
  http::SseParser parser;
  bool delivered = false;
  std::optional<Error> streamError;
  bool streamErrorRetryable = false;
  auto lastActivity = Clock::now();

  auto handleEvent = [&](const http::SseEvent& event) {
    if (trim(event.data).empty()) return true;
    auto chunk = gemini::parseResponseChunk(event.data);
    if (!chunk) {
      streamError = chunk.error();
      auto apiError = gemini::parseApiError(event.data);
      streamErrorRetryable = !delivered && apiError && retryableStatus(apiError->code);
      return false;
    }
    reply.add(*chunk);
    delivered = true;
    if (onChunk) onChunk(*chunk);
    return !cancel.cancelled();
  };

  req.response_handler = [&](const httplib::Response& res) {
    status = res.status;
    retryAfterHeader = res.get_header_value("Retry-After");
    lastActivity = Clock::now();
    return !cancel.cancelled();
  };
  req.content_receiver = [&](const char* data, size_t size, uint64_t, uint64_t) {
    if (cancel.cancelled()) return false;
    lastActivity = Clock::now();
    // Keeps an error body, or the start of a stream in case it has no events.
    size_t keep = status != 200 ? kMaxErrorBody : kMaxStreamHead;
    keptBody.append(data, std::min(size, keep - std::min(keep, keptBody.size())));
    if (status != 200) return true;
    for (const http::SseEvent& event : parser.feed(std::string_view(data, size))) {
      if (!handleEvent(event)) return false;
    }
    return true;
  };

  httplib::Response res;
  httplib::Error error = httplib::Error::Success;
  bool ok;
  {
    auto stopSwitch = std::make_shared<StopSwitch>();
    stopSwitch->client = &client;
    auto registration = cancel.onCancel([stopSwitch] {
      std::lock_guard lock(stopSwitch->mutex);
      if (stopSwitch->client) stopSwitch->client->stop();
    });
    ok = !cancel.cancelled() && client.send(req, res, error);
    std::lock_guard lock(stopSwitch->mutex);
    stopSwitch->client = nullptr;
  }

  if (cancel.cancelled()) return Outcome{Outcome::Kind::cancelled, cancelledError(), std::nullopt};
  if (streamError) return streamErrorRetryable ? retry(*streamError) : fail(*streamError);

  if (status == 200 && ok) {
    if (auto last = parser.finish()) {
      if (!handleEvent(*last)) {
        if (cancel.cancelled()) return Outcome{Outcome::Kind::cancelled, cancelledError(), std::nullopt};
        if (streamError) return streamErrorRetryable ? retry(*streamError) : fail(*streamError);
      }
    }
    if (!delivered) {
      std::string_view head = trim(keptBody);
      if (head.empty() || head.front() == ':') {
        return retry(makeError(Errc::model, "The Gemini API at " + url + " ended its reply without sending anything."));
      }
      // Something that is not an event stream (a proxy's page, plain JSON): retrying will not help.
      return fail(makeError(Errc::model, "The Gemini API at " + url + " did not reply with server-sent events; it began: " +
                                             utf8Prefix(head, 200)));
    }
    return Outcome{};
  }

  if (status == 200) {  // the transport failed after the headers
    std::string why = describeTransport(error);
    Errc code = Errc::http;
    if (error == httplib::Error::Read && Clock::now() - lastActivity >= options.readTimeout - milliseconds(500)) {
      why = "no data arrived for " + inSeconds(options.readTimeout) + " (httplib: Read)";
      code = Errc::timeout;
    }
    Error broken = makeError(code, "The Gemini API stream from " + url + " broke off: " + why);
    return delivered ? fail(broken) : retry(broken);
  }

  if (status < 0) {  // never got a response
    Errc code = error == httplib::Error::ConnectionTimeout ? Errc::timeout : Errc::http;
    return retry(makeError(code, "Could not reach the Gemini API at " + url + ": " + describeTransport(error)));
  }

  // An HTTP error status: its body says why.
  std::string message = gemini::describeHttpError(status, keptBody);
  auto apiError = gemini::parseApiError(keptBody);
  std::optional<milliseconds> after = parseRetryAfter(retryAfterHeader);
  if (!after && apiError) after = apiError->retryDelay;
  bool badKey = status == 401 || (apiError && apiError->reason.starts_with("API_KEY_"));
  if (badKey) message += " Check GEMINI_API_KEY.";
  Error httpError = makeError(badKey ? Errc::auth_required : Errc::http, std::move(message));
  if (retryableStatus(status)) return retry(std::move(httpError), after);
  return fail(std::move(httpError));
}

GeminiProvider::GeminiProvider(Options options) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  if (!impl_->options.sleep) impl_->options.sleep = cancellableSleep;
  impl_->options.maxAttempts = std::max(1, impl_->options.maxAttempts);
}

GeminiProvider::~GeminiProvider() = default;

Result<ModelReply> GeminiProvider::stream(const ModelRequest& request, const ChunkSink& onChunk,
                                          const CancelToken& cancel) {
  const Options& options = impl_->options;
  if (options.apiKey.empty()) {
    return makeError(Errc::auth_required,
                     "No Gemini API key: set GEMINI_API_KEY to a key from https://aistudio.google.com/apikey.");
  }
  auto endpoint = parseBaseUrl(options.baseUrl);
  if (!endpoint) return endpoint.error();
  std::string_view model = request.model;
  if (model.starts_with("models/")) model.remove_prefix(7);
  if (model.empty()) return makeError(Errc::invalid_params, "No Gemini model was named for the request.");

  const std::string path =
      endpoint->pathPrefix + "/v1beta/models/" + std::string(model) + ":streamGenerateContent?alt=sse";
  const std::string body = gemini::buildRequestBody(request);

  for (int attempt = 1;; ++attempt) {
    if (cancel.cancelled()) return cancelledError();
    ReplyAccumulator reply;
    Outcome outcome = impl_->attempt(*endpoint, path, body, onChunk, cancel, reply);
    switch (outcome.kind) {
      case Outcome::Kind::success: return reply.take();
      case Outcome::Kind::cancelled:
      case Outcome::Kind::fail: return outcome.error;
      case Outcome::Kind::retry: break;
    }
    if (outcome.retryAfter && *outcome.retryAfter > options.maxRetryAfter) {
      outcome.error.message += " (the API asks to wait " + inSeconds(*outcome.retryAfter) + " before trying again)";
      return outcome.error;
    }
    if (attempt >= options.maxAttempts) {
      if (options.maxAttempts > 1) outcome.error.message += " (gave up after " + std::to_string(attempt) + " attempts)";
      return outcome.error;
    }
    milliseconds delay = outcome.retryAfter ? *outcome.retryAfter : impl_->backoff(attempt);
    options.sleep(delay, cancel);
  }
}

}  // namespace lathe::engine
