// File matching: glob patterns, ignore rules, the parallel walker and the line
// matcher behind glob and grep_search.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/time.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <regex>
#include <set>

#include "tools/search/file_walker.h"
#include "tools/search/glob_match.h"
#include "tools/search/ignore_rules.h"
#include "tools/search/text_search.h"
#include "tools/core/workspace.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::tools;
namespace fs = std::filesystem;


namespace {

using lathe::testing::TempDir;

bool has(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

// The files a walk visits, relative to its start, sorted.
std::vector<std::string> walked(const WalkOptions& options, const CancelToken& cancel = CancelToken()) {
  std::mutex mutex;
  std::vector<std::string> out;
  auto stats = walkFiles(options, cancel, [&](const WalkEntry& e) {
    std::lock_guard lock(mutex);
    out.emplace_back(e.rel);
    return WalkControl::proceed;
  });
  REQUIRE(stats.ok());
  std::sort(out.begin(), out.end());
  return out;
}

WalkOptions walkAt(const fs::path& root) {
  WalkOptions options;
  options.root = root.string();
  options.start = root.string();
  return options;
}

}  // namespace

// ---------------------------------------------------------------- glob_match

TEST_CASE("glob patterns match paths as ripgrep and Gemini CLI users expect") {
  struct Row {
    const char* pattern;
    const char* path;
    bool expected;
    GlobCase sensitivity = GlobCase::sensitive;
  };
  const Row rows[] = {
      {"*.cpp", "main.cpp", true},
      {"*.cpp", "src/main.cpp", false},  // `*` stays within one segment
      {"*.cpp", "main.cpp.bak", false},
      {"*", ".hidden", true},            // dotfiles match
      {"**/*.cpp", "main.cpp", true},    // `**/` takes zero segments
      {"**/*.cpp", "a/b/c/main.cpp", true},
      {"**/*.cpp", "a/b/c/main.h", false},
      {"src/**/*.ts", "src/a.ts", true},
      {"src/**/*.ts", "src/x/y/a.ts", true},
      {"src/**/*.ts", "lib/src/a.ts", false},
      {"src/**", "src/a/b", true},
      {"src/**", "src", false},          // a trailing `/**` needs something inside
      {"**", "anything/at/all", true},
      {"a/**/b", "a/b", true},
      {"a/**/b", "a/x/y/b", true},
      {"a/**/b", "a/x/y/c", false},
      {"**/node_modules/**", "x/node_modules/y/z.js", true},
      {"**/node_modules", "deep/er/node_modules", true},
      {"**/node_modules", "deep/node_modules_x", false},
      {"file?.txt", "file1.txt", true},
      {"file?.txt", "file10.txt", false},
      {"file?.txt", "file/.txt", false},  // `?` never matches '/'
      {"[abc].txt", "b.txt", true},
      {"[abc].txt", "d.txt", false},
      {"[a-c]x", "bx", true},
      {"[!a-c]x", "bx", false},
      {"[!a-c]x", "dx", true},
      {"[^a]x", "bx", true},
      {"[]]x", "]x", true},
      {"*.{ts,tsx}", "app.tsx", true},
      {"*.{ts,tsx}", "app.ts", true},
      {"*.{ts,tsx}", "app.js", false},
      {"{src,lib}/**/*.{c,h}", "lib/x/y.h", true},
      {"{src,lib}/**/*.{c,h}", "doc/x/y.h", false},
      {"{a,{b,c}}d", "cd", true},
      {"\\*.txt", "*.txt", true},
      {"\\*.txt", "a.txt", false},
      {"a\\[1\\].txt", "a[1].txt", true},
      {"[unclosed", "[unclosed", true},
      {"{unclosed", "{unclosed", true},
      {"src/*/x.c", "src/a/x.c", true},
      {"src/*/x.c", "src/a/b/x.c", false},
      {"*a*b*c", "xaybzc", true},
      {"*a*b*c", "xaybz", false},
      {"README.md", "README.md", true},
      {"README.md", "docs/README.md", false},
      {"*.CPP", "main.cpp", false},
      {"*.CPP", "main.cpp", true, GlobCase::insensitive},
      {"SRC/**/*.Ts", "src/a/b.ts", true, GlobCase::insensitive},
      {"[A-C]x", "bx", true, GlobCase::insensitive},
      {"Makefile", "makefile", true, GlobCase::insensitive},
      {"**/MAKEFILE", "a/makefile", true, GlobCase::insensitive},
  };
  for (const auto& row : rows) {
    auto glob = GlobPattern::compile(row.pattern, row.sensitivity);
    REQUIRE(glob.ok());
    INFO(row.pattern << " vs " << row.path);
    CHECK(glob->matches(row.path) == row.expected);
  }
}

TEST_CASE("globs expand braces, report depth and prune directories") {
  auto expanded = expandBraces("{a,b}/{c,d{e,f}}");
  REQUIRE(expanded.ok());
  CHECK(*expanded == std::vector<std::string>{"a/c", "a/de", "a/df", "b/c", "b/de", "b/df"});
  CHECK(expandBraces("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", 1024).error().code == Errc::invalid_params);
  CHECK(GlobPattern::compile("").error().code == Errc::invalid_params);

  CHECK(GlobPattern::compile("*.py")->maxSegments() == size_t{1});
  CHECK(GlobPattern::compile("{a/b/c,d}")->maxSegments() == size_t{3});
  CHECK_FALSE(GlobPattern::compile("**/*.py")->maxSegments().has_value());

  auto glob = GlobPattern::compile("src/*/test/**/*.c").value();
  CHECK(glob.couldMatchInside(""));
  CHECK(glob.couldMatchInside("src"));
  CHECK(glob.couldMatchInside("src/a"));
  CHECK(glob.couldMatchInside("src/a/test"));
  CHECK(glob.couldMatchInside("src/a/test/deep/er"));
  CHECK_FALSE(glob.couldMatchInside("lib"));
  CHECK_FALSE(glob.couldMatchInside("src/a/prod"));
  CHECK_FALSE(GlobPattern::compile("*.py")->couldMatchInside("src"));

  CHECK(GlobPattern::compile("a/b.txt")->isLiteral());
  CHECK_FALSE(GlobPattern::compile("a/*.txt")->isLiteral());
  auto escaped = GlobPattern::compile(escapeGlob("weird [1] {a,b} *.txt")).value();
  CHECK(escaped.isLiteral());
  CHECK(escaped.matches("weird [1] {a,b} *.txt"));
  CHECK_FALSE(escaped.matches("weird 1 a *.txt"));
}

// -------------------------------------------------------------- ignore rules

TEST_CASE("gitignore lines follow git's semantics") {
  struct Row {
    const char* rules;
    const char* path;
    bool isDir;
    IgnoreFile::Verdict expected;
  };
  using V = IgnoreFile::Verdict;
  const Row rows[] = {
      {"*.log", "a.log", false, V::ignored},
      {"*.log", "deep/er/a.log", false, V::ignored},  // no slash: any depth
      {"*.log", "a.txt", false, V::none},
      {"# comment\n\n*.o", "# comment", false, V::none},
      {"\\#keep", "#keep", false, V::ignored},         // escaped '#'
      {"\\!bang", "!bang", false, V::ignored},         // escaped '!'
      {"*.log\n!keep.log", "keep.log", false, V::included},  // negation, last match wins
      {"!keep.log\n*.log", "keep.log", false, V::ignored},
      {"build/", "build", true, V::ignored},           // dir-only
      {"build/", "build", false, V::none},
      {"build/", "src/build", true, V::ignored},
      {"/build", "build", true, V::ignored},           // leading slash anchors
      {"/build", "src/build", true, V::none},
      {"doc/frotz", "doc/frotz", true, V::ignored},    // middle slash anchors
      {"doc/frotz", "a/doc/frotz", true, V::none},
      {"**/foo", "foo", false, V::ignored},
      {"**/foo", "x/y/foo", false, V::ignored},
      {"**/foo/bar", "x/foo/bar", false, V::ignored},
      {"abc/**", "abc/x/y", false, V::ignored},
      {"abc/**", "abc", true, V::none},                // the folder itself stays
      {"a/**/b", "a/b", false, V::ignored},
      {"a/**/b", "a/x/y/b", false, V::ignored},
      {"trailing   ", "trailing", false, V::ignored},  // trailing spaces dropped
      {"space\\ ", "space ", false, V::ignored},       // unless escaped
      {"crlf\r\n", "crlf", false, V::ignored},
      {"{a,b}", "{a,b}", false, V::ignored},           // braces are literal in gitignore
      {"{a,b}", "a", false, V::none},
      {"Readme", "readme", false, V::none},            // case-sensitive
  };
  for (const auto& row : rows) {
    auto file = IgnoreFile::parse(row.rules, "");
    INFO("rules: " << row.rules << " path: " << row.path);
    CHECK(file->match(row.path, row.isDir) == row.expected);
  }

  // A file in a subdirectory applies below it, anchored to it.
  auto nested = IgnoreFile::parse("/only-here\nanywhere", "sub");
  CHECK(nested->match("sub/only-here", false) == V::ignored);
  CHECK(nested->match("sub/x/only-here", false) == V::none);
  CHECK(nested->match("sub/x/anywhere", false) == V::ignored);
  CHECK(nested->match("only-here", false) == V::none);
  CHECK(nested->match("subway/anywhere", false) == V::none);
}

TEST_CASE("ignore rules combine nested .gitignore, info/exclude and .geminiignore") {
  TempDir t;
  t.write(".gitignore", "*.log\n/root-only.txt\nbuild/\n");
  t.write(".git/info/exclude", "excluded.txt\n");
  t.write(".git/HEAD", "ref: refs/heads/main\n");
  t.write(".geminiignore", "secret/\n");
  t.write("a.txt", "a");
  t.write("a.log", "a");
  t.write("root-only.txt", "x");
  t.write("excluded.txt", "x");
  t.write("sub/root-only.txt", "kept: the anchor is the root");
  t.write("sub/.gitignore", "!keep.log\n*.tmp\n");
  t.write("sub/keep.log", "re-included by the nested file");
  t.write("sub/drop.log", "x");
  t.write("sub/x.tmp", "x");
  t.write("other/x.tmp", "kept: sub's rules stop at sub");
  t.write("build/out.o", "x");
  t.write("secret/key.txt", "x");

  auto all = walked(walkAt(t.path));
  CHECK(all == std::vector<std::string>{".geminiignore", ".gitignore", "a.txt", "other/x.tmp", "sub/.gitignore",
                                        "sub/keep.log", "sub/root-only.txt"});

  auto options = walkAt(t.path);
  options.ignore.respectGeminiIgnore = false;
  auto noGemini = walked(options);
  CHECK(std::count(noGemini.begin(), noGemini.end(), "secret/key.txt") == 1);
  CHECK(std::count(noGemini.begin(), noGemini.end(), "a.log") == 0);

  options = walkAt(t.path);
  options.ignore.respectGitIgnore = false;
  auto noGit = walked(options);
  for (const char* p : {"a.log", "root-only.txt", "excluded.txt", "sub/drop.log", "build/out.o"}) {
    CHECK(std::count(noGit.begin(), noGit.end(), p) == 1);
  }
  CHECK(std::count(noGit.begin(), noGit.end(), "secret/key.txt") == 0);
  // .git itself is never walked.
  CHECK(std::none_of(noGit.begin(), noGit.end(), [](const std::string& p) { return p.rfind(".git/", 0) == 0; }));

  IgnoreOptions defaults;
  CHECK(isPathIgnored(t.path.string(), "sub/drop.log", false, defaults));
  CHECK_FALSE(isPathIgnored(t.path.string(), "sub/keep.log", false, defaults));
  CHECK(isPathIgnored(t.path.string(), "build/out.o", false, defaults));  // through its ignored folder
  CHECK(isPathIgnored(t.path.string(), ".git/HEAD", false, defaults));
  CHECK_FALSE(isPathIgnored(t.path.string(), "a.txt", false, defaults));

  // Walking from a subdirectory still applies the rules above it.
  options = walkAt(t.path);
  options.start = (t.path / "sub").string();
  CHECK(walked(options) == std::vector<std::string>{".gitignore", "keep.log", "root-only.txt"});
}

// --------------------------------------------------------------- file walker

TEST_CASE("the walker visits every file once, in parallel, and never leaves the workspace") {
  TempDir t;
  TempDir out;
  out.write("secret.txt", "outside");
  std::set<std::string> expected;
  for (int d = 0; d < 20; ++d) {
    for (int f = 0; f < 30; ++f) {
      std::string rel = "d" + std::to_string(d) + "/s" + std::to_string(f % 3) + "/f" + std::to_string(f) + ".txt";
      t.write(rel, "x");
      expected.insert(rel);
    }
  }
  for (int f = 0; f < 600; ++f) {  // a big flat folder is shared out in batches
    std::string rel = "flat/f" + std::to_string(f);
    t.write(rel, "x");
    expected.insert(rel);
  }
  fs::create_symlink(out.path / "secret.txt", t.path / "link-out.txt");
  fs::create_directory_symlink(out.path, t.path / "dir-out");
  fs::create_symlink(t.path / "d0/s0/f0.txt", t.path / "link-in.txt");
  fs::create_directory_symlink(t.path / "d1", t.path / "dir-in");
  expected.insert("link-in.txt");

  auto workspace = Workspace::create(t.path.string()).value();
  for (unsigned threads : {1u, 4u}) {
    auto options = walkAt(t.path);
    options.threads = threads;
    options.confine = &workspace;
    auto files = walked(options);
    CHECK(std::set<std::string>(files.begin(), files.end()) == expected);
    CHECK(files.size() == expected.size());  // no duplicates
  }

  // Following symlinked directories stays inside the workspace.
  auto options = walkAt(t.path);
  options.confine = &workspace;
  options.followSymlinks = true;
  auto followed = walked(options);
  CHECK(std::count(followed.begin(), followed.end(), "dir-in/s0/f0.txt") == 1);
  CHECK(std::none_of(followed.begin(), followed.end(), [](const std::string& p) { return p.rfind("dir-out", 0) == 0; }));

  // Depth limits and pruning.
  options = walkAt(t.path);
  options.confine = &workspace;
  options.maxDepth = 1;
  CHECK(walked(options) == std::vector<std::string>{"link-in.txt"});
  options.maxDepth.reset();
  options.descend = [](std::string_view dir) { return dir == "d3" || dir == "d3/s1"; };
  auto pruned = walked(options);
  CHECK(pruned.size() == 11);  // d3/s1's ten files and link-in.txt
  CHECK(std::all_of(pruned.begin(), pruned.end(), [](const std::string& p) { return p == "link-in.txt" || p.rfind("d3/s1/", 0) == 0; }));
}

TEST_CASE("the walker stops when asked, honours cancellation and refuses bad starts") {
  TempDir t;
  for (int f = 0; f < 2000; ++f) t.write("d" + std::to_string(f % 50) + "/f" + std::to_string(f), "x");
  std::atomic<int> seen{0};
  auto options = walkAt(t.path);
  auto stats = walkFiles(options, CancelToken(), [&](const WalkEntry&) {
    return ++seen >= 10 ? WalkControl::stop : WalkControl::proceed;
  });
  REQUIRE(stats.ok());
  CHECK(stats->stopped);
  CHECK(seen.load() < 2000);

  auto cancel = CancelToken::create();
  cancel.cancel();
  stats = walkFiles(options, cancel, [&](const WalkEntry&) { return WalkControl::proceed; });
  REQUIRE(stats.ok());
  CHECK(stats->cancelled);
  CHECK(stats->files == 0);

  options.start = (t.path / "missing").string();
  CHECK(walkFiles(options, CancelToken(), [](const WalkEntry&) { return WalkControl::proceed; }).error().code ==
        Errc::not_found);
  options.start = (t.path / "d0/f0").string();
  CHECK(walkFiles(options, CancelToken(), [](const WalkEntry&) { return WalkControl::proceed; }).error().code ==
        Errc::invalid_params);
}

// -------------------------------------------------------------- line matcher

namespace {
std::vector<std::string> matchingLines(const TextMatcher& m, std::string_view text) {
  auto scratch = m.makeScratch();
  std::vector<std::string> out;
  size_t from = 0;
  while (auto line = m.nextMatchingLine(text, from, *scratch)) {
    out.emplace_back(text.substr(line->start, line->end - line->start));
    from = line->end + 1;
  }
  return out;
}
}  // namespace

TEST_CASE("the line matcher finds literals and regexes a line at a time") {
  const std::string text = "alpha Foo\nbeta foo bar\ngamma\nFOO\nfood\n\nend foo";
  auto literal = TextMatcher::compile({"foo", false, false}).value();
  CHECK(literal.strategy() == "literal");
  CHECK(matchingLines(literal, text) == std::vector<std::string>{"alpha Foo", "beta foo bar", "FOO", "food", "end foo"});
  auto sensitive = TextMatcher::compile({"foo", true, false}).value();
  CHECK(matchingLines(sensitive, text) == std::vector<std::string>{"beta foo bar", "food", "end foo"});

  auto fixed = TextMatcher::compile({"a.b(", true, true}).value();
  CHECK(fixed.strategy() == "literal");
  CHECK(matchingLines(fixed, "a.b(\naxb(\n") == std::vector<std::string>{"a.b("});
  CHECK(TextMatcher::compile({"a\\.b\\(", true, false})->strategy() == "literal");  // escaped punctuation only

  auto regex = TextMatcher::compile({"^[fx]o+d?$", false, false}).value();
  CHECK(regex.strategy() == "regex");
  CHECK(matchingLines(regex, text) == std::vector<std::string>{"FOO", "food"});
  CHECK(TextMatcher::compile({"^fo+d?$", false, false})->strategy() == "regex+prefilter");  // "fo" is required

  auto prefiltered = TextMatcher::compile({"\\bbar\\w*\\s+\\d+", true, false}).value();
  CHECK(prefiltered.strategy() == "regex+prefilter");
  CHECK(matchingLines(prefiltered, "bar 1\nxbar 2\nbarn  33\nbar x\n") == std::vector<std::string>{"bar 1", "barn  33"});
  CHECK(TextMatcher::compile({"foo|bar", true, false})->strategy() == "regex");   // alternation: no required literal
  CHECK(TextMatcher::compile({"colou?r", true, false})->strategy() == "regex+prefilter");
  CHECK(matchingLines(TextMatcher::compile({"colou?r", true, false}).value(), "color\ncolour\ncolr\n") ==
        std::vector<std::string>{"color", "colour"});

  // A match may not run across lines.
  auto spaced = TextMatcher::compile({"alpha\\s+beta", true, false}).value();
  CHECK(matchingLines(spaced, "alpha\nbeta\nalpha  beta\n") == std::vector<std::string>{"alpha  beta"});
  auto negated = TextMatcher::compile({"x[^y]z", true, false}).value();
  CHECK(matchingLines(negated, "x\nz\nxaz\n") == std::vector<std::string>{"xaz"});

  // Non-ASCII case folding goes through PCRE2's Unicode tables.
  auto unicode = TextMatcher::compile({"ÉTÉ", false, true}).value();
  CHECK(matchingLines(unicode, "un été chaud\nhiver\n") == std::vector<std::string>{"un été chaud"});

  auto bad = TextMatcher::compile({"foo(bar", true, false});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == Errc::invalid_params);
  CHECK(has(bad.error().message, "foo(bar"));
  CHECK(has(bad.error().message, "missing closing parenthesis"));

  CHECK(countNewlines("") == 0);
  CHECK(countNewlines("a\nb\n\n0123456789\n0123456789\nx") == 5);
  std::string many(1000, '\n');
  CHECK(countNewlines(many) == 1000);
}

TEST_CASE("the literal finder agrees with a plain search at every offset and edge") {
  std::mt19937 rng(7);
  const std::string alphabet = "abAB\n xyz";
  for (int round = 0; round < 300; ++round) {
    std::string text;
    size_t length = rng() % 80;
    for (size_t i = 0; i < length; ++i) text += alphabet[rng() % alphabet.size()];
    std::string needle;
    size_t needleLength = 1 + rng() % 4;
    for (size_t i = 0; i < needleLength; ++i) needle += "abAB"[rng() % 4];
    for (bool sensitive : {true, false}) {
      auto matcher = TextMatcher::compile({needle, sensitive, true}).value();
      // The expected lines: those holding the needle, compared per line.
      std::vector<std::string> expected;
      size_t start = 0;
      while (start < text.size()) {
        size_t nl = text.find('\n', start);
        std::string line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
        std::string hay = line, want = needle;
        if (!sensitive) {
          for (auto& c : hay) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          for (auto& c : want) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        if (hay.find(want) != std::string::npos) expected.push_back(line);
        if (nl == std::string::npos) break;
        start = nl + 1;
      }
      INFO("needle " << needle << " sensitive " << sensitive << " text " << text);
      CHECK(matchingLines(matcher, text) == expected);
    }
  }
}

TEST_CASE("prefiltered and plain regexes find the same lines as std::regex") {
  std::mt19937 rng(11);
  const std::string alphabet = "abcdeXY_ 01\n";
  const char* patterns[] = {"abc", "ab+c", "a.c", "b[cd]e", "(ab|cd)e", "ab?cd", "\\bab", "de\\d", "X_?Y",
                            "a[^\\n]*e", "^ab", "c$", "d{2}", "abc*d"};
  for (int round = 0; round < 60; ++round) {
    std::string text;
    for (int i = 0; i < 400; ++i) text += alphabet[rng() % alphabet.size()];
    for (const char* pattern : patterns) {
      for (bool sensitive : {true, false}) {
        auto matcher = TextMatcher::compile({pattern, sensitive, false}).value();
        auto flags = std::regex::ECMAScript | (sensitive ? std::regex::flag_type{} : std::regex::icase);
        std::regex re(pattern, flags);
        std::vector<std::string> expected;
        size_t start = 0;
        while (start < text.size()) {
          size_t nl = text.find('\n', start);
          std::string line = text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
          if (std::regex_search(line, re)) expected.push_back(line);
          if (nl == std::string::npos) break;
          start = nl + 1;
        }
        INFO(pattern << " (" << matcher.strategy() << ") sensitive " << sensitive);
        CHECK(matchingLines(matcher, text) == expected);
      }
    }
  }
}

