// Search tools: glob matching, gitignore rules, the parallel file walker, the
// line matcher, and the glob, grep_search and read_many_files tools.
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

#include "tools/builtin_tools.h"
#include "tools/file_walker.h"
#include "tools/glob_match.h"
#include "tools/ignore_rules.h"
#include "tools/text_search.h"
#include "tools/workspace.h"
#include "temp_dir.h"

using namespace lathe;
using namespace lathe::tools;
namespace fs = std::filesystem;

namespace {

using lathe::testing::TempDir;

// Sets a file's modification time to `secondsAgo` before now.
void age(const fs::path& p, long secondsAgo) {
  struct timeval now {};
  ::gettimeofday(&now, nullptr);
  struct timeval times[2] = {now, now};
  times[0].tv_sec -= secondsAgo;
  times[1].tv_sec -= secondsAgo;
  REQUIRE(::utimes(p.c_str(), times) == 0);
}

struct Fixture {
  TempDir root;
  TempDir outside;
  ToolContext context;
  Fixture() { context.workspace = std::make_shared<const Workspace>(Workspace::create(root.path.string()).value()); }

  ToolResult run(const Tool& tool, const std::string& args) {
    auto doc = json::parse(args).value();
    auto built = tool.build(doc);
    if (!built.invocation) return ToolResult::failure(built.error->type, built.error->message);
    return built.invocation->execute(CancelToken(), [](const std::string&) {});
  }
  ToolResult grep(const std::string& args) { return run(*makeGrepSearchTool(context), args); }
  ToolResult glob(const std::string& args) { return run(*makeGlobTool(context), args); }
  ToolResult readMany(const std::string& args) { return run(*makeReadManyFilesTool(context), args); }
  std::string abs(const std::string& rel) const { return (root.path / rel).string(); }
};

std::string llmText(const ToolResult& result) {
  std::string text;
  for (const auto& part : result.llmContent) text += part.text;
  return text;
}

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

// ---------------------------------------------------------------- grep_search

TEST_CASE("grep_search groups matching lines by file like Gemini CLI") {
  Fixture f;
  f.root.write("src/a.cpp", "int main() {\n  return Foo();\n}\n");
  f.root.write("src/b.cpp", "// foo here\nvoid foo();\nint other;\nfoo again\n");
  f.root.write("README.md", "Nothing to see\n");

  auto result = f.grep(R"({"pattern": "foo"})");
  REQUIRE_FALSE(result.error);
  CHECK(llmText(result) ==
        "Found 4 matches for pattern \"foo\" in path \".\":\n---\n"
        "File: src/a.cpp\nL2:   return Foo();\n---\n"
        "File: src/b.cpp\nL1: // foo here\nL2: void foo();\nL4: foo again\n---");
  CHECK(std::get<std::string>(result.returnDisplay) == "Found 4 matches");

  // case_sensitive drops the capitalised match
  result = f.grep(R"({"pattern": "foo", "case_sensitive": true, "context": 0})");
  CHECK(has(llmText(result), "Found 3 matches"));
  CHECK_FALSE(has(llmText(result), "src/a.cpp"));

  // names_only
  result = f.grep(R"({"pattern": "FOO", "names_only": true})");
  CHECK(llmText(result) == "Found 2 files with matches for pattern \"FOO\" in path \".\":\nsrc/a.cpp\nsrc/b.cpp");

  // dir_path narrows and paths are relative to it
  result = f.grep(R"({"pattern": "void", "dir_path": "src", "context": 0})");
  CHECK(llmText(result) == "Found 1 match for pattern \"void\" in path \"src\":\n---\nFile: b.cpp\nL2: void foo();\n---");

  // no match
  result = f.grep(R"({"pattern": "zebra", "include_pattern": "*.md"})");
  REQUIRE_FALSE(result.error);
  CHECK(llmText(result) == "No matches found for pattern \"zebra\" in path \".\" (filter: \"*.md\").");
}

TEST_CASE("grep_search filters files, lines and regex flavours") {
  Fixture f;
  f.root.write("src/app.ts", "const x = 1; // TODO fix\n");
  f.root.write("src/app.tsx", "// TODO render\n");
  f.root.write("src/deep/util.js", "// TODO later\n");
  f.root.write("test/app.ts", "// TODO test\n");
  f.root.write("notes.txt", "TODO: a.b(c)\nTODO skip me\n");

  auto text = llmText(f.grep(R"({"pattern": "TODO", "include_pattern": "*.{ts,tsx}", "context": 0})"));
  CHECK(has(text, "Found 3 matches"));
  CHECK(has(text, "File: src/app.ts\n"));
  CHECK(has(text, "File: src/app.tsx\n"));
  CHECK(has(text, "File: test/app.ts\n"));

  text = llmText(f.grep(R"({"pattern": "TODO", "include_pattern": "src/**", "context": 0})"));
  CHECK(has(text, "Found 3 matches"));
  CHECK(has(text, "File: src/deep/util.js"));
  CHECK_FALSE(has(text, "test/app.ts"));

  text = llmText(f.grep(R"({"pattern": "todo", "exclude_pattern": "skip|render", "context": 0})"));
  CHECK(has(text, "Found 4 matches"));
  CHECK_FALSE(has(text, "skip me"));
  CHECK_FALSE(has(text, "render"));

  text = llmText(f.grep(R"J({"pattern": "a.b(c)", "fixed_strings": true})J"));
  CHECK(has(text, "Found 1 match"));
  CHECK(has(text, "L1: TODO: a.b(c)"));

  text = llmText(f.grep(R"({"pattern": "const\\s+\\w+\\s*=", "context": 0})"));
  CHECK(has(text, "File: src/app.ts\nL1: const x = 1; // TODO fix"));
}

TEST_CASE("grep_search shows context lines marked apart from matches") {
  Fixture f;
  std::string body;
  for (int i = 1; i <= 20; ++i) body += "line " + std::to_string(i) + (i == 5 || i == 7 || i == 15 ? " hit" : "") + "\n";
  f.root.write("f.txt", body);

  auto text = llmText(f.grep(R"({"pattern": "hit", "context": 1})"));
  CHECK(has(text, "File: f.txt\nL4- line 4\nL5: line 5 hit\nL6- line 6\nL7: line 7 hit\nL8- line 8\n"
                  "L14- line 14\nL15: line 15 hit\nL16- line 16\n---"));

  text = llmText(f.grep(R"({"pattern": "line 15", "before": 2, "after": 0})"));
  CHECK(has(text, "L13- line 13\nL14- line 14\nL15: line 15 hit\n---"));

  // One match and no context asked for: Gemini CLI's automatic surroundings.
  text = llmText(f.grep(R"({"pattern": "line 15"})"));
  CHECK(has(text, "Found 1 match"));
  CHECK(has(text, "L1- line 1\n"));
  CHECK(has(text, "L15: line 15 hit\n"));
  CHECK(has(text, "L20- line 20\n---"));
}

TEST_CASE("grep_search limits say so clearly") {
  Fixture f;
  std::string many;
  for (int i = 0; i < 50; ++i) many += "match " + std::to_string(i) + "\n";
  f.root.write("a.txt", many);
  f.root.write("b.txt", many);

  auto result = f.grep(R"({"pattern": "match", "total_max_matches": 10})");
  auto text = llmText(result);
  CHECK(has(text, "Found 10 matches"));
  CHECK(has(text, "(results limited to 10 matches for performance)"));
  CHECK(has(text, "[Search stopped at total_max_matches=10: more matches exist."));
  CHECK(std::get<std::string>(result.returnDisplay) == "Found 10 matches (limited)");

  text = llmText(f.grep(R"({"pattern": "match", "max_matches_per_file": 3})"));
  CHECK(has(text, "Found 6 matches"));
  CHECK(has(text, "File: a.txt\nL1: match 0\nL2: match 1\nL3: match 2\n"
                  "[more matches in this file not shown: max_matches_per_file=3]\n---"));
  CHECK_FALSE(has(text, "Search stopped"));

  // Default: limits.grepDefaultMaxMatches (100) of the 100 lines: not over it.
  text = llmText(f.grep(R"({"pattern": "match"})"));
  CHECK(has(text, "Found 100 matches"));
  CHECK_FALSE(has(text, "limited"));
  f.context.limits.grepDefaultMaxMatches = 30;
  CHECK(has(llmText(f.grep(R"({"pattern": "match"})")), "(results limited to 30 matches"));

  // Long lines are cut.
  f.context.limits.maxLineChars = 20;
  f.root.write("long.txt", "needle " + std::string(100, 'x') + "\n");
  text = llmText(f.grep(R"({"pattern": "needle", "context": 0})"));
  CHECK(has(text, "L1: needle xxxxxxxxxxxxx... [line cut]"));
}

TEST_CASE("grep_search skips binaries and respects ignore files unless no_ignore") {
  Fixture f;
  f.root.write("text.txt", "needle\n");
  f.root.write("blob.bin", std::string("needle\0\x01\x02", 9));
  f.root.write(".gitignore", "ignored/\n");
  f.root.write("ignored/x.txt", "needle\n");
  f.root.write(".geminiignore", "private.txt\n");
  f.root.write("private.txt", "needle\n");
  f.root.write("node_modules/pkg/index.js", "needle\n");
  f.root.write(".hidden/h.txt", "needle\n");

  auto text = llmText(f.grep(R"({"pattern": "needle", "names_only": true})"));
  CHECK(text == "Found 2 files with matches for pattern \"needle\" in path \".\":\n.hidden/h.txt\ntext.txt");

  text = llmText(f.grep(R"({"pattern": "needle", "names_only": true, "no_ignore": true})"));
  CHECK(text == "Found 5 files with matches for pattern \"needle\" in path \".\":\n.hidden/h.txt\n"
                "ignored/x.txt\nnode_modules/pkg/index.js\nprivate.txt\ntext.txt");

  text = llmText(f.grep(R"({"pattern": "zzz"})"));
  CHECK(text == "No matches found for pattern \"zzz\" in path \".\". 1 binary file was skipped.");
  text = llmText(f.grep(R"({"pattern": "zzz", "include_pattern": "*.txt"})"));
  CHECK(text == "No matches found for pattern \"zzz\" in path \".\" (filter: \"*.txt\").");
}

TEST_CASE("grep_search errors name the problem") {
  Fixture f;
  f.root.write("a.txt", "x\n");

  auto result = f.grep(R"({"pattern": "foo(["})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::invalid_params);
  CHECK(has(result.error->message, "params.pattern: invalid regular expression \"foo([\""));
  CHECK(has(result.error->message, "at offset"));

  result = f.grep(R"({"pattern": "x", "exclude_pattern": "(("})");
  REQUIRE(result.error);
  CHECK(has(result.error->message, "params.exclude_pattern"));

  result = f.grep(R"({"pattern": "x", "total_max_matches": 0})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::invalid_params);

  result = f.grep(R"({"pattern": "x", "dir_path": ")" + f.outside.path.string() + R"("})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::path_not_in_workspace);

  result = f.grep(R"({"pattern": "x", "dir_path": "nope"})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::file_not_found);

  // A single file is searched directly.
  auto text = llmText(f.grep(R"({"pattern": "x", "dir_path": "a.txt", "context": 0})"));
  CHECK(has(text, "File: a.txt\nL1: x\n"));

  // Cancellation
  auto tool = makeGrepSearchTool(f.context);
  auto built = tool->build(json::parse(R"({"pattern": "x"})").value());
  auto cancel = CancelToken::create();
  cancel.cancel();
  result = built.invocation->execute(cancel, [](const std::string&) {});
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::cancelled);
}

// ------------------------------------------------------------------------ glob

TEST_CASE("glob lists recent files first, newest first, then the rest by path") {
  Fixture f;
  auto oldB = f.root.write("src/b.ts", "");
  auto oldA = f.root.write("src/a.ts", "");
  auto recent1 = f.root.write("src/z.ts", "");
  auto recent2 = f.root.write("lib/y.ts", "");
  f.root.write("src/c.js", "");
  age(oldA, 3 * 86400);
  age(oldB, 2 * 86400);
  age(recent1, 3600);
  age(recent2, 60);

  auto result = f.glob(R"({"pattern": "**/*.ts"})");
  REQUIRE_FALSE(result.error);
  CHECK(llmText(result) == "Found 4 file(s) matching \"**/*.ts\" within " + f.root.path.string() +
                               ", sorted by modification time (newest first):\n" + f.abs("lib/y.ts") + "\n" +
                               f.abs("src/z.ts") + "\n" + f.abs("src/a.ts") + "\n" + f.abs("src/b.ts"));
  CHECK(std::get<std::string>(result.returnDisplay) == "Found 4 matching file(s)");

  // `*.ts` is the top level only; dir_path moves the base.
  CHECK(has(llmText(f.glob(R"({"pattern": "*.ts"})")), "No files found matching pattern \"*.ts\""));
  auto text = llmText(f.glob(R"({"pattern": "*.ts", "dir_path": "src"})"));
  CHECK(has(text, "Found 3 file(s)"));
  CHECK(has(text, "within " + f.abs("src")));

  // Case-insensitive by default.
  CHECK(has(llmText(f.glob(R"({"pattern": "SRC/*.TS"})")), "Found 3 file(s)"));
  CHECK(has(llmText(f.glob(R"({"pattern": "SRC/*.TS", "case_sensitive": true})")), "No files found"));
  CHECK(has(llmText(f.glob(R"({"pattern": "src/*.{js,ts}"})")), "Found 4 file(s)"));
}

TEST_CASE("glob honours ignore files, caps its list and reports errors") {
  Fixture f;
  f.root.write(".gitignore", "dist/\n*.gen.ts\n");
  f.root.write(".geminiignore", "secret.ts\n");
  f.root.write("a.ts", "");
  f.root.write("x.gen.ts", "");
  f.root.write("dist/out.ts", "");
  f.root.write("secret.ts", "");
  f.root.write("node_modules/m/index.ts", "");
  f.root.write("weird[1].ts", "");

  auto text = llmText(f.glob(R"({"pattern": "**/*.ts"})"));
  CHECK(has(text, "Found 2 file(s)"));
  CHECK(has(text, f.abs("a.ts")));
  CHECK(has(text, f.abs("weird[1].ts")));

  text = llmText(f.glob(R"({"pattern": "**/*.ts", "respect_git_ignore": false})"));
  CHECK(has(text, "Found 4 file(s)"));
  CHECK(has(text, f.abs("dist/out.ts")));
  CHECK_FALSE(has(text, "secret.ts"));
  text = llmText(f.glob(R"({"pattern": "**/*.ts", "respect_gemini_ignore": false})"));
  CHECK(has(text, "Found 3 file(s)"));
  CHECK(has(text, f.abs("secret.ts")));

  // A pattern naming an existing file is taken literally.
  text = llmText(f.glob(R"({"pattern": "weird[1].ts"})"));
  CHECK(has(text, "Found 1 file(s)"));

  text = llmText(f.glob(R"({"pattern": "dist/*.ts"})"));
  CHECK(has(text, "No files found"));
  CHECK(has(text, "respect_git_ignore"));

  f.context.limits.globMaxResults = 1;
  auto capped = f.glob(R"({"pattern": "**/*.ts", "respect_git_ignore": false})");
  CHECK(has(llmText(capped), "showing the first 1:"));
  CHECK(has(llmText(capped), "[3 more matching files are not listed (the limit is 1)."));
  CHECK(std::get<std::string>(capped.returnDisplay) == "Found 4 matching file(s) (listed 1)");

  auto result = f.glob(R"({"pattern": "*.ts", "dir_path": "a.ts"})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::not_a_directory);
  result = f.glob(R"({"pattern": "*.ts", "dir_path": "missing"})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::file_not_found);
  result = f.glob(R"({"pattern": "*", "dir_path": ")" + f.outside.path.string() + R"("})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::path_not_in_workspace);
  result = f.glob(R"({"pattern": "../*"})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::invalid_params);
  result = f.glob(R"({"pattern": ""})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::invalid_params);
}

// -------------------------------------------------------------- read_many_files

TEST_CASE("read_many_files joins text files and lists what it skipped") {
  Fixture f;
  f.root.write("docs/a.md", "# A\n");
  f.root.write("docs/b.md", "# B\n");
  f.root.write("docs/deep/c.md", "# C\n");
  f.root.write("docs/blob.dat", std::string("\0\0\0binary", 9));
  f.root.write("docs/archive.zip", "PK");
  f.root.write("docs/logo.png", "\x89PNG fake");
  f.root.write("node_modules/x/readme.md", "dep");
  f.root.write("src/main.cpp", "int main() {}\n");

  auto result = f.readMany(R"({"include": ["docs/*.md", "src/main.cpp"]})");
  REQUIRE_FALSE(result.error);
  CHECK(llmText(result) == "--- " + f.abs("docs/a.md") + " ---\n\n# A\n\n\n" + "--- " + f.abs("docs/b.md") +
                               " ---\n\n# B\n\n\n" + "--- " + f.abs("src/main.cpp") + " ---\n\nint main() {}\n\n\n" +
                               "\n--- End of content ---");

  // A directory means its subtree; binaries and unnamed images are skipped with reasons.
  result = f.readMany(R"({"include": ["docs/"]})");
  auto text = llmText(result);
  CHECK(has(text, "--- " + f.abs("docs/deep/c.md") + " ---"));
  CHECK(has(text, "- docs/blob.dat (binary file)"));
  CHECK(has(text, "- docs/logo.png (image/PDF not named explicitly"));
  CHECK_FALSE(has(text, "archive.zip ---"));  // default excludes
  CHECK(result.llmContent.size() == 1);
  auto display = std::get<std::string>(result.returnDisplay);
  CHECK(has(display, "Successfully read and concatenated content from **3 file(s)**."));
  CHECK(has(display, "**Skipped 2 item(s):**"));

  // recursive: false keeps to the folder itself.
  text = llmText(f.readMany(R"({"include": ["docs"], "recursive": false})"));
  CHECK_FALSE(has(text, "deep/c.md"));
  CHECK(has(text, "docs/a.md ---"));

  // Without default excludes the archive is reached, then skipped as binary.
  text = llmText(f.readMany(R"({"include": ["docs/archive.zip"], "useDefaultExcludes": false})"));
  CHECK(has(text, "- docs/archive.zip (binary file)"));

  // exclude patterns
  text = llmText(f.readMany(R"({"include": ["**/*.md"], "exclude": ["deep/"]})"));
  CHECK(has(text, "docs/a.md ---"));
  CHECK_FALSE(has(text, "deep/c.md"));
  CHECK_FALSE(has(text, "node_modules"));
}

TEST_CASE("read_many_files sends named images inline and respects ignore files and size caps") {
  Fixture f;
  f.root.write("img/logo.png", "\x89PNG fake");
  f.root.write(".gitignore", "secret.txt\n");
  f.root.write("secret.txt", "hidden");
  f.root.write("big1.txt", std::string(600, 'a') + "\n");
  f.root.write("big2.txt", std::string(600, 'b') + "\n");
  f.root.write("big3.txt", std::string(600, 'c') + "\n");

  auto result = f.readMany(R"({"include": ["img/logo.png"]})");
  REQUIRE_FALSE(result.error);
  REQUIRE(result.llmContent.size() == 2);
  CHECK(result.llmContent[0].mimeType == "image/png");
  CHECK(result.llmContent[0].data == "iVBORyBmYWtl");
  CHECK(has(result.llmContent[1].text, "--- End of content ---"));
  // Naming the extension is enough.
  result = f.readMany(R"({"include": ["**/*.png"]})");
  CHECK(result.llmContent.front().mimeType == "image/png");

  auto text = llmText(f.readMany(R"({"include": ["secret.txt"]})"));
  CHECK(has(text, "No files matching the criteria were found or all were skipped."));
  CHECK(has(text, "- secret.txt (ignored by .gitignore"));
  text = llmText(f.readMany(R"({"include": ["secret.txt"], "file_filtering_options": {"respect_git_ignore": false}})"));
  CHECK(has(text, "hidden"));

  f.context.limits.readManyMaxBytes = 1000;
  text = llmText(f.readMany(R"({"include": ["big*.txt"]})"));
  CHECK(has(text, "big1.txt ---"));
  CHECK(has(text, "big2.txt ---"));
  CHECK_FALSE(has(text, "big3.txt ---"));
  CHECK(has(text, "- 1 more file(s) (not read: the total size limit (1000 bytes) was reached)"));
  CHECK(has(text, "[Output stopped at the size limit"));

  f.context.limits.readDefaultLines = 2;
  f.root.write("lines.txt", "1\n2\n3\n4\n");
  text = llmText(f.readMany(R"({"include": ["lines.txt"]})"));
  CHECK(has(text, "[WARNING: This file was truncated"));
  CHECK(has(text, "1\n2\n\n"));
  CHECK_FALSE(has(text, "3\n"));

  result = f.readMany(R"({"include": [")" + f.outside.path.string() + R"(/x.txt"]})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::path_not_in_workspace);
  result = f.readMany(R"({"include": ["../**/*.txt"]})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::path_not_in_workspace);
  result = f.readMany(R"({"include": []})");
  REQUIRE(result.error);
  CHECK(result.error->type == ErrorType::invalid_params);
}
