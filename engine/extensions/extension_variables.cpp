// Extension variables and .env files.
#include "engine/extensions/extension_variables.h"

#include <algorithm>
#include <cctype>

#include "protocol/base/text.h"

namespace lathe::engine {
namespace {

bool wordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::string hydrate(std::string_view text, const Variables& variables) {
  std::string out;
  size_t from = 0;
  for (size_t at = text.find("${"); at != std::string_view::npos; at = text.find("${", from)) {
    size_t close = text.find('}', at + 2);
    if (close == std::string_view::npos) break;
    out.append(text.substr(from, at - from));
    auto it = variables.find(text.substr(at + 2, close - at - 2));
    out.append(it == variables.end() ? text.substr(at, close + 1 - at) : std::string_view(it->second));
    from = close + 1;
  }
  out.append(text.substr(from));
  return out;
}

std::string resolveEnv(std::string_view text, const Lookup& lookup) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] != '$' || i + 1 >= text.size()) {
      out += text[i++];
      continue;
    }
    std::string name;
    std::optional<std::string> fallback;
    size_t end = i + 1;
    if (text[end] == '{') {
      size_t close = text.find('}', end + 1);
      if (close == std::string_view::npos || close == end + 1) {
        out += text[i++];
        continue;
      }
      std::string_view inside = text.substr(end + 1, close - end - 1);
      if (size_t sep = inside.find(":-"); sep != std::string_view::npos && sep > 0) {
        name = std::string(inside.substr(0, sep));
        fallback = std::string(inside.substr(sep + 2));
      } else {
        name = std::string(inside);
      }
      end = close + 1;
    } else {
      while (end < text.size() && wordChar(text[end])) ++end;
      if (end == i + 1) {
        out += text[i++];
        continue;
      }
      name = std::string(text.substr(i + 1, end - i - 1));
    }
    if (auto value = lookup(name)) {
      out += *value;
    } else if (fallback) {
      out += *fallback;
    } else {
      out.append(text.substr(i, end - i));
    }
    i = end;
  }
  return out;
}

void rewriteStrings(json::Value& value, json::Document::AllocatorType& alloc,
                    const std::function<std::string(std::string_view)>& change) {
  if (value.IsString()) {
    std::string changed = change({value.GetString(), value.GetStringLength()});
    value.SetString(changed.c_str(), static_cast<rapidjson::SizeType>(changed.size()), alloc);
  } else if (value.IsArray()) {
    for (auto& item : value.GetArray()) rewriteStrings(item, alloc, change);
  } else if (value.IsObject()) {
    for (auto it = value.MemberBegin(); it != value.MemberEnd();) {
      std::string_view key(it->name.GetString(), it->name.GetStringLength());
      if (key == "__proto__" || key == "constructor" || key == "prototype") {
        it = value.EraseMember(it);
        continue;
      }
      rewriteStrings(it->value, alloc, change);
      ++it;
    }
  }
}

std::vector<std::pair<std::string, std::string>> parseDotenv(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text::trim(text.substr(at, end - at));
    at = end + 1;
    if (line.empty() || line.front() == '#') continue;
    if (line.starts_with("export ")) line = text::trimLeft(line.substr(7));
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    std::string key(text::trim(line.substr(0, eq)));
    if (key.empty()) continue;
    std::string_view rest = text::trim(line.substr(eq + 1));
    std::string value;
    const char quote = rest.empty() ? '\0' : rest.front();
    if ((quote == '"' || quote == '\'' || quote == '`') && rest.size() >= 2 && rest.find(quote, 1) != std::string_view::npos) {
      std::string_view inside = rest.substr(1, rest.find(quote, 1) - 1);
      for (size_t k = 0; k < inside.size(); ++k) {
        if (quote == '"' && inside[k] == '\\' && k + 1 < inside.size() && (inside[k + 1] == 'n' || inside[k + 1] == 'r')) {
          value += inside[k + 1] == 'n' ? '\n' : '\r';
          ++k;
        } else {
          value += inside[k];
        }
      }
    } else {
      size_t comment = rest.find(" #");
      value = std::string(text::trim(rest.substr(0, comment)));
    }
    auto same = std::find_if(out.begin(), out.end(), [&](const auto& entry) { return entry.first == key; });
    if (same != out.end()) {
      same->second = std::move(value);
    } else {
      out.emplace_back(std::move(key), std::move(value));
    }
  }
  return out;
}

}  // namespace lathe::engine
