// Regular expressions through PCRE2.
#define PCRE2_CODE_UNIT_WIDTH 8
#include "protocol/base/regex.h"

#include <pcre2.h>

namespace lathe {
namespace {

// Backtracking steps one search may take: far beyond any sensible policy
// pattern on a command line, short enough that a pathological one ends at once.
constexpr uint32_t kMatchLimit = 1'000'000;

std::string errorText(int code) {
  PCRE2_UCHAR buffer[256];
  int n = pcre2_get_error_message(code, buffer, sizeof buffer);
  return n < 0 ? "error " + std::to_string(code) : std::string(reinterpret_cast<const char*>(buffer), static_cast<size_t>(n));
}

}  // namespace

struct Regex::Impl {
  std::string pattern;
  pcre2_code* code = nullptr;
  ~Impl() {
    if (code) pcre2_code_free(code);
  }
};

Result<Regex> Regex::compile(std::string_view pattern) {
  auto impl = std::make_shared<Impl>();
  impl->pattern = std::string(pattern);
  int errorCode = 0;
  PCRE2_SIZE errorOffset = 0;
  impl->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                             PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &errorCode, &errorOffset, nullptr);
  if (!impl->code) {
    return makeError(Errc::invalid_params, "invalid regular expression \"" + impl->pattern + "\": " + errorText(errorCode) +
                                               " at offset " + std::to_string(errorOffset));
  }
  Regex regex;
  regex.impl_ = std::move(impl);
  return regex;
}

Regex::Match Regex::search(std::string_view text) const {
  pcre2_match_data* data = pcre2_match_data_create_from_pattern(impl_->code, nullptr);
  pcre2_match_context* context = pcre2_match_context_create(nullptr);
  if (!data || !context) {
    if (data) pcre2_match_data_free(data);
    if (context) pcre2_match_context_free(context);
    return Match::tooComplex;
  }
  pcre2_set_match_limit(context, kMatchLimit);
  int rc = pcre2_match(impl_->code, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), 0, 0, data, context);
  pcre2_match_data_free(data);
  pcre2_match_context_free(context);
  if (rc >= 0) return Match::yes;
  return rc == PCRE2_ERROR_NOMATCH ? Match::no : Match::tooComplex;
}

const std::string& Regex::pattern() const { return impl_->pattern; }

}  // namespace lathe
