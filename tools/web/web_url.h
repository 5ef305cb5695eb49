// URLs as web_fetch takes them: found in the model's prompt, checked to be
// http(s), normalised, GitHub blob pages turned into their raw files, and
// split into what a connection needs. Pure; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/result.h"

namespace lathe::tools::web {

inline constexpr size_t kMaxPromptUrls = 20;

struct WebUrl {
  std::string scheme;  // http or https
  std::string host;    // lower-case; IPv6 without brackets
  int port = 0;        // explicit or the scheme's default
  std::string target;  // path and query, never empty, no fragment

  std::string hostForUrl() const;  // brackets around IPv6
  std::string text() const;        // normalised: default port and fragment dropped
};

// Parses an absolute http(s) URL. Credentials in the URL are refused.
Result<WebUrl> parseWebUrl(std::string_view url);

// The URLs in a prompt (tokens holding "://"), normalised and de-duplicated
// in order. Fails on a token with another scheme or a broken URL, on none at
// all, and on more than kMaxPromptUrls.
Result<std::vector<std::string>> urlsInPrompt(std::string_view prompt);

// github.com/OWNER/REPO/blob/REF/PATH → raw.githubusercontent.com/OWNER/REPO/REF/PATH;
// any other URL unchanged.
std::string rawGitHubUrl(const std::string& url);

}  // namespace lathe::tools::web
