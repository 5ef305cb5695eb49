// A recursive walk over Gumbo's tree writing into one string; tables and link
// texts are rendered into their own strings first, then laid out.
#include "tools/web/html_text.h"

#include <gumbo.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include "protocol/base/utf8.h"
#include "protocol/http/exchange.h"

namespace lathe::tools::web {
namespace {

constexpr int kMaxDepth = 400;  // deeper markup is dropped rather than risk the stack
// Gumbo's work grows with the square of the nesting (every tag scans the open
// elements), so a hostile page of nested tags could hold it for minutes: the
// page is cut where a cheap scan sees it nest deeper than this.
constexpr size_t kMaxNesting = 256;
// Formatting elements left open stay on HTML's list of active formatting
// elements and are cloned again into every later block, so misnested ones
// (<div><b id=1></div><div><b id=2></div>...) grow the tree with the square of
// their number while the open-element stack stays shallow: a page is also
// cut where more than this many are open.
constexpr size_t kMaxOpenFormatting = 64;

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

std::string attribute(const GumboElement& element, const char* name) {
  const GumboAttribute* attr = gumbo_get_attribute(&element.attributes, name);
  return attr ? std::string(attr->value) : std::string();
}

std::string trim(std::string_view text) {
  size_t b = 0, e = text.size();
  while (b < e && isSpace(text[b])) ++b;
  while (e > b && isSpace(text[e - 1])) --e;
  return std::string(text.substr(b, e - b));
}

// Everything on one line: runs of whitespace become one space.
std::string oneLine(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (isSpace(c)) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string absoluteLink(const std::string& base, std::string href) {
  href = trim(href);
  if (href.empty() || href.front() == '#') return "";
  std::string lower = href.substr(0, 11);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower.starts_with("javascript:") || lower.starts_with("data:")) return "";
  if (href.find("://") != std::string::npos || lower.starts_with("mailto:") || lower.starts_with("tel:")) return href;
  size_t scheme = base.find("://");
  if (scheme == std::string::npos) return href;
  if (href.starts_with("//")) return base.substr(0, scheme + 1) + href;
  if (href.front() == '?') return base.substr(0, base.find('?')) + href;
  return http::resolveUrl(base, href);
}

class Renderer {
 public:
  explicit Renderer(const std::string& base) : base_(base) {}

  std::string take() { return std::move(out_); }

  void children(const GumboNode* node, int depth) {
    const GumboVector& kids = node->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i) walk(static_cast<const GumboNode*>(kids.data[i]), depth + 1);
  }

  void walk(const GumboNode* node, int depth) {
    if (depth > kMaxDepth) return;
    switch (node->type) {
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_CDATA:
      case GUMBO_NODE_WHITESPACE: text(node->v.text.text); break;
      case GUMBO_NODE_ELEMENT:
      case GUMBO_NODE_TEMPLATE: element(node, depth); break;
      case GUMBO_NODE_DOCUMENT: children(node, depth); break;
      default: break;  // comments
    }
  }

 private:
  void text(std::string_view text) {
    if (pre_ > 0) {
      out_ += text;
      return;
    }
    for (char c : text) {
      if (isSpace(c)) {
        space_ = true;
        continue;
      }
      if (space_ && !out_.empty() && out_.back() != '\n' && out_.back() != ' ') out_ += ' ';
      space_ = false;
      out_ += c;
    }
  }

  void raw(std::string_view text) {
    if (space_ && !out_.empty() && out_.back() != '\n' && out_.back() != ' ') out_ += ' ';
    space_ = false;
    out_ += text;
  }

  void newline() {
    space_ = false;
    while (!out_.empty() && out_.back() == ' ') out_.pop_back();
    if (!out_.empty() && out_.back() != '\n') out_ += '\n';
  }

  void blankLine() {
    newline();
    if (!out_.empty() && !out_.ends_with("\n\n")) out_ += '\n';
  }

  void indent() {
    for (size_t i = 1; i < lists_.size(); ++i) out_ += "  ";
  }

  std::string inlineOf(const GumboNode* node, int depth) {
    Renderer inner(base_);
    inner.children(node, depth);
    return oneLine(inner.take());
  }

  void element(const GumboNode* node, int depth) {
    const GumboElement& el = node->v.element;
    switch (el.tag) {
      case GUMBO_TAG_SCRIPT: case GUMBO_TAG_STYLE: case GUMBO_TAG_NOSCRIPT: case GUMBO_TAG_TEMPLATE:
      case GUMBO_TAG_SVG: case GUMBO_TAG_MATH: case GUMBO_TAG_IFRAME: case GUMBO_TAG_OBJECT: case GUMBO_TAG_EMBED:
      case GUMBO_TAG_CANVAS: case GUMBO_TAG_SELECT: case GUMBO_TAG_HEAD: case GUMBO_TAG_IMG: case GUMBO_TAG_INPUT:
      case GUMBO_TAG_AUDIO: case GUMBO_TAG_VIDEO: case GUMBO_TAG_MAP:
        return;  // not text a reader sees
      case GUMBO_TAG_H1: case GUMBO_TAG_H2: case GUMBO_TAG_H3: case GUMBO_TAG_H4: case GUMBO_TAG_H5: case GUMBO_TAG_H6: {
        std::string title = inlineOf(node, depth);
        if (title.empty()) return;
        blankLine();
        out_ += std::string(static_cast<size_t>(el.tag - GUMBO_TAG_H1 + 1), '#') + " " + title;
        blankLine();
        return;
      }
      case GUMBO_TAG_BR: newline(); return;
      case GUMBO_TAG_HR: blankLine(); out_ += "---"; blankLine(); return;
      case GUMBO_TAG_A: link(node, depth); return;
      case GUMBO_TAG_PRE: {
        blankLine();
        out_ += "```\n";
        ++pre_;
        children(node, depth);
        --pre_;
        newline();
        out_ += "```";
        blankLine();
        return;
      }
      case GUMBO_TAG_CODE:
        if (pre_ > 0) break;
        raw("`" + inlineOf(node, depth) + "`");
        return;
      case GUMBO_TAG_TABLE: table(node, depth); return;
      case GUMBO_TAG_UL: case GUMBO_TAG_OL: {
        newline();
        if (lists_.empty()) blankLine();
        lists_.push_back(el.tag == GUMBO_TAG_OL ? 1 : 0);
        children(node, depth);
        lists_.pop_back();
        if (lists_.empty()) blankLine(); else newline();
        return;
      }
      case GUMBO_TAG_LI: {
        newline();
        indent();
        if (!lists_.empty() && lists_.back() > 0) {
          out_ += std::to_string(lists_.back()++) + ". ";
        } else {
          out_ += "- ";
        }
        children(node, depth);
        newline();
        return;
      }
      case GUMBO_TAG_P: case GUMBO_TAG_BLOCKQUOTE: case GUMBO_TAG_FIGURE: case GUMBO_TAG_DL: case GUMBO_TAG_ADDRESS:
        blankLine();
        children(node, depth);
        blankLine();
        return;
      case GUMBO_TAG_DIV: case GUMBO_TAG_SECTION: case GUMBO_TAG_ARTICLE: case GUMBO_TAG_HEADER: case GUMBO_TAG_FOOTER:
      case GUMBO_TAG_MAIN: case GUMBO_TAG_NAV: case GUMBO_TAG_ASIDE: case GUMBO_TAG_DT: case GUMBO_TAG_DD:
      case GUMBO_TAG_FORM: case GUMBO_TAG_FIELDSET: case GUMBO_TAG_DETAILS: case GUMBO_TAG_SUMMARY:
      case GUMBO_TAG_FIGCAPTION: case GUMBO_TAG_CAPTION: case GUMBO_TAG_TR:
        newline();
        children(node, depth);
        newline();
        return;
      default: break;
    }
    children(node, depth);
  }

  void link(const GumboNode* node, int depth) {
    std::string label = inlineOf(node, depth);
    std::string href = absoluteLink(base_, attribute(node->v.element, "href"));
    if (label.empty()) label = trim(attribute(node->v.element, "title"));
    if (label.empty()) return;
    if (href.empty()) {
      raw(label);
    } else {
      raw("[" + label + "](" + href + ")");
    }
  }

  // Rows of cells, each cell on one line.
  void collectRows(const GumboNode* node, int depth, std::vector<std::vector<std::string>>& rows, bool& header) {
    if (depth > kMaxDepth) return;
    const GumboVector& kids = node->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i) {
      auto* kid = static_cast<const GumboNode*>(kids.data[i]);
      if (kid->type != GUMBO_NODE_ELEMENT) continue;
      GumboTag tag = kid->v.element.tag;
      if (tag == GUMBO_TAG_THEAD || tag == GUMBO_TAG_TBODY || tag == GUMBO_TAG_TFOOT) {
        collectRows(kid, depth + 1, rows, header);
      } else if (tag == GUMBO_TAG_TR) {
        std::vector<std::string> cells;
        const GumboVector& tds = kid->v.element.children;
        for (unsigned j = 0; j < tds.length; ++j) {
          auto* td = static_cast<const GumboNode*>(tds.data[j]);
          if (td->type != GUMBO_NODE_ELEMENT) continue;
          if (td->v.element.tag != GUMBO_TAG_TD && td->v.element.tag != GUMBO_TAG_TH) continue;
          if (rows.empty() && td->v.element.tag == GUMBO_TAG_TH) header = true;
          std::string cell = inlineOf(td, depth + 2);
          std::string escaped;
          for (char c : cell) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
          cells.push_back(std::move(escaped));
        }
        if (!cells.empty()) rows.push_back(std::move(cells));
      } else if (tag == GUMBO_TAG_CAPTION) {
        std::string caption = inlineOf(kid, depth + 1);
        captions_.push_back(std::move(caption));
      }
    }
  }

  void table(const GumboNode* node, int depth) {
    std::vector<std::vector<std::string>> rows;
    bool header = false;
    captions_.clear();
    collectRows(node, depth, rows, header);
    rows.erase(std::remove_if(rows.begin(), rows.end(), [](const auto& r) { return r.empty(); }), rows.end());
    blankLine();
    for (const auto& caption : captions_) {
      if (!caption.empty()) out_ += caption + "\n\n";
    }
    if (rows.empty()) return;
    size_t columns = 0;
    for (const auto& row : rows) columns = std::max(columns, row.size());
    auto writeRow = [&](const std::vector<std::string>& row) {
      out_ += "|";
      for (size_t c = 0; c < columns; ++c) out_ += " " + (c < row.size() ? row[c] : std::string()) + " |";
      out_ += "\n";
    };
    // A Markdown table needs a header row; a table without <th> gets an empty one.
    if (header) {
      writeRow(rows.front());
    } else {
      writeRow(std::vector<std::string>(columns));
    }
    out_ += "|";
    for (size_t c = 0; c < columns; ++c) out_ += " --- |";
    out_ += "\n";
    for (size_t r = header ? 1 : 0; r < rows.size(); ++r) writeRow(rows[r]);
    blankLine();
  }

  const std::string& base_;
  std::string out_;
  bool space_ = false;
  int pre_ = 0;
  std::vector<int> lists_;  // 0: bullets; n > 0: the next number
  std::vector<std::string> captions_;
};

// Trailing spaces dropped, at most one blank line in a row, no blank ends.
std::string tidy(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  int newlines = 0;
  for (char c : text) {
    if (c == '\n') {
      while (!out.empty() && out.back() == ' ') out.pop_back();
      if (++newlines <= 2 && !out.empty()) out += '\n';
      continue;
    }
    newlines = 0;
    out += c;
  }
  return trim(out);
}

std::string titleOf(const GumboNode* node, int depth) {
  if (depth > kMaxDepth || node->type != GUMBO_NODE_ELEMENT) return "";
  if (node->v.element.tag == GUMBO_TAG_TITLE) {
    std::string text;
    const GumboVector& kids = node->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i) {
      auto* kid = static_cast<const GumboNode*>(kids.data[i]);
      if (kid->type == GUMBO_NODE_TEXT) text += kid->v.text.text;
    }
    return oneLine(text);
  }
  if (node->v.element.tag != GUMBO_TAG_HTML && node->v.element.tag != GUMBO_TAG_HEAD) return "";
  const GumboVector& kids = node->v.element.children;
  for (unsigned i = 0; i < kids.length; ++i) {
    std::string title = titleOf(static_cast<const GumboNode*>(kids.data[i]), depth + 1);
    if (!title.empty()) return title;
  }
  return "";
}

bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == ':'; }

bool oneOf(const std::string& name, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (name == n) return true;
  }
  return false;
}

// Elements an end tag cannot close through (HTML's "has an element in scope").
bool scopeBoundary(const std::string& name) {
  return oneOf(name, {"applet", "caption", "html", "table", "td", "th", "marquee", "object", "template"});
}

// Pops up to and including the nearest open `names` element above any scope
// boundary (and above `limit`, when given); nothing when there is none.
void popTo(std::vector<std::string>& stack, std::initializer_list<const char*> names,
           std::initializer_list<const char*> limit = {}) {
  for (size_t i = stack.size(); i-- > 0;) {
    if (oneOf(stack[i], names)) {
      stack.resize(i);
      return;
    }
    if (scopeBoundary(stack[i]) || oneOf(stack[i], limit)) return;
  }
}

// What a start tag closes by itself, as HTML's tree builder would.
void impliedEnds(std::vector<std::string>& stack, const std::string& name) {
  if (name == "li") popTo(stack, {"li"}, {"ul", "ol"});
  if (name == "dt" || name == "dd") popTo(stack, {"dt", "dd"}, {"dl"});
  if (name == "tr") popTo(stack, {"tr"});
  if (name == "td" || name == "th") popTo(stack, {"td", "th"}, {"tr"});
  if (name == "thead" || name == "tbody" || name == "tfoot") popTo(stack, {"thead", "tbody", "tfoot"});
  if (name == "option") popTo(stack, {"option"}, {"select"});
  if (oneOf(name, {"p", "div", "ul", "ol", "dl", "li", "dd", "dt", "table", "pre", "blockquote", "section", "article",
                   "aside", "header", "footer", "nav", "main", "form", "fieldset", "figure", "address", "details",
                   "h1", "h2", "h3", "h4", "h5", "h6", "hr"})) {
    popTo(stack, {"p"}, {"button"});
  }
}

// The offset of the tag where the markup first nests deeper than kMaxNesting
// by a tag-level scan mirroring the tree builder's main rules, or npos.
size_t nestingCut(std::string_view html) {
  std::vector<std::string> stack;
  size_t foreignAt = std::string_view::npos;  // the outermost open svg or math element
  auto dropClosedForeign = [&] {
    if (foreignAt != std::string_view::npos && foreignAt >= stack.size()) foreignAt = std::string_view::npos;
  };
  std::map<std::string, size_t> openFormatting;  // per name: start tags not yet ended by their own end tag
  size_t formatting = 0;
  auto isFormatting = [](const std::string& name) {
    return oneOf(name, {"a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u"});
  };
  size_t i = 0;
  while ((i = html.find('<', i)) != std::string_view::npos) {
    size_t at = i;
    if (html.substr(i, 4) == "<!--") {
      size_t end = html.find("-->", i + 4);
      if (end == std::string_view::npos) return std::string_view::npos;
      i = end + 3;
      continue;
    }
    bool endTag = i + 1 < html.size() && html[i + 1] == '/';
    size_t start = i + (endTag ? 2 : 1), n = start;
    while (n < html.size() && isNameChar(html[n])) ++n;
    if (n == start) {
      ++i;
      continue;
    }
    std::string name(html.substr(start, n - start));
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    size_t close = html.find('>', n);
    if (close == std::string_view::npos) return std::string_view::npos;
    i = close + 1;
    if (endTag) {
      popTo(stack, {name.c_str()});
      if (auto it = openFormatting.find(name); it != openFormatting.end() && it->second > 0) {
        --it->second;
        --formatting;
      }
      continue;
    }
    if (isFormatting(name)) {
      ++openFormatting[name];
      if (++formatting > kMaxOpenFormatting) return at;
    }
    if (oneOf(name, {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
                     "track", "wbr", "keygen"})) {
      continue;
    }
    // In SVG and MathML "<x/>" closes itself; in HTML it opens an element.
    dropClosedForeign();
    if (foreignAt != std::string_view::npos && html[close - 1] == '/') continue;
    if (oneOf(name, {"script", "style", "textarea", "title", "xmp", "noembed", "noframes", "iframe", "plaintext"})) {
      size_t end = html.find("</", i);  // raw text: no tags inside (good enough for a bound)
      while (end != std::string_view::npos && html.substr(end + 2, name.size()) != name) end = html.find("</", end + 2);
      if (end == std::string_view::npos) return std::string_view::npos;
      i = end;
      continue;
    }
    // Table parts outside a table are ignored by HTML.
    bool tablePart = oneOf(name, {"tr", "td", "th", "thead", "tbody", "tfoot", "caption", "colgroup"});
    if (tablePart && std::find(stack.rbegin(), stack.rend(), "table") == stack.rend()) continue;
    impliedEnds(stack, name);
    dropClosedForeign();
    if (foreignAt == std::string_view::npos && (name == "svg" || name == "math")) foreignAt = stack.size();
    stack.push_back(std::move(name));
    if (stack.size() > kMaxNesting) return at;
  }
  return std::string_view::npos;
}

}  // namespace

std::string htmlToText(std::string_view html, const std::string& baseUrl) {
  size_t cut = nestingCut(html);
  if (cut != std::string_view::npos) html = html.substr(0, cut);
  GumboOutput* output = gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size());
  std::string title = titleOf(output->root, 0);
  Renderer renderer(baseUrl);
  renderer.walk(output->root, 0);
  std::string body = tidy(renderer.take());
  gumbo_destroy_output(&kGumboDefaultOptions, output);
  if (!title.empty()) body = "# " + title + "\n\n" + body;
  if (cut != std::string_view::npos) body += "\n\n... [The rest of the page nests too deeply to read] ...";
  return utf8::sanitize(body);
}

}  // namespace lathe::tools::web
