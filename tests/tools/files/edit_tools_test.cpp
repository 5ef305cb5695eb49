// Edit tools: the disk FileStore (atomic writes), text formats (BOM, CRLF,
// final newline), write_file and replace through the Tool API, confirmation
// before anything is written, workspace confinement, and an in-memory FileStore
// standing in for the editor's unsaved buffers.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "tools/files/file_tools.h"
#include "tools/core/file_store.h"
#include "tools/files/text_format.h"
#include "tools/core/workspace.h"
#include "tests/support/temp_dir.h"

using namespace lathe;
using namespace lathe::tools;
namespace fs = std::filesystem;

namespace {

using lathe::testing::TempDir;

using lathe::testing::readFile;

unsigned modeOf(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// The editor's view of files: open buffers that may differ from the disk.
class MemoryFileStore final : public FileStore {
 public:
  Result<std::string> readText(const std::string& path, const CancelToken&) override {
    std::lock_guard lock(mutex_);
    ++reads;
    auto it = buffers.find(path);
    if (it == buffers.end()) return makeError(Errc::not_found, "no buffer for " + path);
    return it->second;
  }
  Status writeText(const std::string& path, const std::string& content, const CancelToken&) override {
    std::lock_guard lock(mutex_);
    ++writes;
    buffers[path] = content;
    return {};
  }
  std::map<std::string, std::string> buffers;
  int reads = 0;
  int writes = 0;

 private:
  std::mutex mutex_;
};

// Reads from the disk, fails every write (a full disk, a refused editor write).
class FailingWriteStore final : public FileStore {
 public:
  Result<std::string> readText(const std::string& path, const CancelToken& cancel) override {
    return disk_->readText(path, cancel);
  }
  Status writeText(const std::string&, const std::string&, const CancelToken&) override {
    return makeError(Errc::io, "No space left on device");
  }

 private:
  std::shared_ptr<FileStore> disk_ = makeDiskFileStore();
};

struct Fixture {
  TempDir root;
  TempDir outside;
  ToolContext context;
  std::unique_ptr<Tool> writeFile;
  std::unique_ptr<Tool> replace;

  explicit Fixture(std::shared_ptr<FileStore> files = makeDiskFileStore()) {
    context.workspace = std::make_shared<const Workspace>(Workspace::create(root.path.string()).value());
    context.files = std::move(files);
    writeFile = makeWriteFileTool(context);
    replace = makeReplaceTool(context);
  }

  BuildResult build(const Tool& tool, const std::string& args) {
    auto doc = json::parse(args);
    REQUIRE(doc.ok());
    return tool.build(doc.value());
  }

  // Build, confirm, execute: what the scheduler does for an approved call.
  ToolResult run(const Tool& tool, const std::string& args) {
    auto built = build(tool, args);
    if (!built.invocation) return ToolResult::failure(built.error->type, built.error->message);
    auto confirm = built.invocation->shouldConfirmExecute(CancelToken());
    REQUIRE(confirm.ok());
    return built.invocation->execute(CancelToken(), [](const std::string&) {});
  }

  std::string path(const std::string& rel) const { return (root.path / rel).string(); }
};

std::string writeArgs(const std::string& path, const std::string& content) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "file_path", path);
    json::put(w, "content", content);
    w.EndObject();
  });
}

struct ReplaceArgs {
  ReplaceArgs(std::string p, std::string o, std::string n)
      : path(std::move(p)), oldString(std::move(o)), newString(std::move(n)) {}
  std::string path;
  std::string oldString;
  std::string newString;
  std::string instruction = "Change the greeting";
  std::optional<bool> allowMultiple;
  std::optional<int64_t> expected;
  std::string json() const {
    return json::build([&](json::Writer& w) {
      w.StartObject();
      json::put(w, "file_path", path);
      json::put(w, "instruction", instruction);
      json::put(w, "old_string", oldString);
      json::put(w, "new_string", newString);
      if (allowMultiple) json::put(w, "allow_multiple", *allowMultiple);
      if (expected) json::put(w, "expected_replacements", *expected);
      w.EndObject();
    });
  }
};

std::string llmText(const ToolResult& result) {
  std::string text;
  for (const auto& part : result.llmContent) text += part.text;
  return text;
}

const FileDiff& diffOf(const ToolResult& result) {
  REQUIRE(std::holds_alternative<FileDiff>(result.returnDisplay));
  return std::get<FileDiff>(result.returnDisplay);
}

ErrorType errorOf(const ToolResult& result) {
  REQUIRE(result.error.has_value());
  return result.error->type;
}

}  // namespace

// ---------------------------------------------------------------- text format

TEST_CASE("edit: text format detects BOM, line endings by majority and the final newline") {
  auto f = detectFormat("\xEF\xBB\xBF" "a\r\nb\r\nc\n");
  CHECK(f.bom);
  CHECK(f.lineEnding == LineEnding::crlf);
  CHECK(f.finalNewline);
  f = detectFormat("a\nb\r\nc");
  CHECK_FALSE(f.bom);
  CHECK(f.lineEnding == LineEnding::lf);  // a tie is LF
  CHECK_FALSE(f.finalNewline);
  CHECK(detectFormat("").lineEnding == LineEnding::lf);
  CHECK_FALSE(detectFormat("").finalNewline);
}

TEST_CASE("edit: normalize and restore round-trip consistent files") {
  for (std::string raw : {std::string("\xEF\xBB\xBF" "one\r\ntwo\r\n"), std::string("one\r\ntwo"),
                          std::string("one\ntwo\n"), std::string("x"), std::string("\r\n\r\n"),
                          std::string("\xEF\xBB\xBF"), std::string("a\r\r\nb\r\n")}) {
    CAPTURE(raw);
    CHECK(restore(normalize(raw), detectFormat(raw)) == raw);
  }
  CHECK(normalize("\xEF\xBB\xBF" "one\r\ntwo\r\n") == "one\ntwo\n");
  CHECK(normalize("\xEF\xBB\xBF" "a\r\nb\rc") == "a\nb\rc");  // lone CR kept
}

TEST_CASE("edit: the final-newline rule adds one only where the original had one") {
  TextFormat with{false, LineEnding::lf, true};
  TextFormat without{false, LineEnding::crlf, false};
  CHECK(conformFinalNewline("a\nb", with) == "a\nb\n");
  CHECK(conformFinalNewline("a\nb\n", with) == "a\nb\n");
  CHECK(conformFinalNewline("", with).empty());
  CHECK(conformFinalNewline("a\nb", without) == "a\nb");
  CHECK(conformFinalNewline("a\nb\n", without) == "a\nb\n");  // the new text's own newline stays
  CHECK(restore("a\nb", TextFormat{true, LineEnding::crlf, true}) == "\xEF\xBB\xBF" "a\r\nb\r\n");
  CHECK(restore("a\nb", without) == "a\r\nb");
}

// ---------------------------------------------------------------- disk store

TEST_CASE("edit: replace changes exactly one occurrence and reports it") {
  Fixture f;
  fs::path file = f.root.write("src/hello.txt", "hello world\nbye world\n");
  auto result = f.run(*f.replace, ReplaceArgs{"src/hello.txt", "hello world", "hello there"}.json());
  REQUIRE_FALSE(result.error);
  CHECK(readFile(file) == "hello there\nbye world\n");
  CHECK(llmText(result) == "Successfully modified file: " + file.string() + " (1 replacement).");
  const FileDiff& diff = diffOf(result);
  CHECK(diff.path == file.string());
  CHECK(diff.oldText == std::optional<std::string>("hello world\nbye world\n"));
  CHECK(diff.newText == "hello there\nbye world\n");
}

TEST_CASE("edit: replace with allow_multiple replaces every occurrence, without it, ambiguity is an error") {
  Fixture f;
  fs::path file = f.root.write("a.txt", "x = 1;\nx = 1;\nx = 1;\n");
  auto ambiguous = f.run(*f.replace, ReplaceArgs{"a.txt", "x = 1;", "x = 2;"}.json());
  CHECK(errorOf(ambiguous) == ErrorType::occurrence_count_mismatch);
  CHECK_THAT(ambiguous.error->message, Catch::Contains("matches 3 places") && Catch::Contains("allow_multiple"));
  CHECK(readFile(file) == "x = 1;\nx = 1;\nx = 1;\n");

  ReplaceArgs all{"a.txt", "x = 1;", "x = 2;"};
  all.allowMultiple = true;
  auto result = f.run(*f.replace, all.json());
  REQUIRE_FALSE(result.error);
  CHECK(readFile(file) == "x = 2;\nx = 2;\nx = 2;\n");
  CHECK_THAT(llmText(result), Catch::EndsWith("(3 replacements)."));

  // Occurrences do not overlap: "aaaa" holds "aa" twice.
  f.root.write("b.txt", "aaaa");
  ReplaceArgs overlap{"b.txt", "aa", "b"};
  overlap.allowMultiple = true;
  REQUIRE_FALSE(f.run(*f.replace, overlap.json()).error);
  CHECK(readFile(f.root.path / "b.txt") == "bb");
}

TEST_CASE("edit: replace with no occurrence explains how to recover") {
  Fixture f;
  fs::path file = f.root.write("a.py", "def f():\n    return 1\n");
  auto result = f.run(*f.replace, ReplaceArgs{"a.py", "def g():\n  return 1", "def g():\n  return 2"}.json());
  CHECK(errorOf(result) == ErrorType::no_occurrence_found);
  CHECK_THAT(result.error->message, Catch::Contains("whitespace") && Catch::Contains("indentation") &&
                                        Catch::Contains("read_file"));
  CHECK(readFile(file) == "def f():\n    return 1\n");
}

TEST_CASE("edit: replace honours the legacy expected_replacements") {
  Fixture f;
  fs::path file = f.root.write("a.txt", "k k k\n");
  ReplaceArgs two{"a.txt", "k", "v"};
  two.expected = 2;
  auto mismatch = f.run(*f.replace, two.json());
  CHECK(errorOf(mismatch) == ErrorType::occurrence_count_mismatch);
  CHECK_THAT(mismatch.error->message, Catch::Contains("expected 2 occurrences") && Catch::Contains("found 3"));
  CHECK(readFile(file) == "k k k\n");

  ReplaceArgs three = two;
  three.expected = 3;
  REQUIRE_FALSE(f.run(*f.replace, three.json()).error);
  CHECK(readFile(file) == "v v v\n");

  ReplaceArgs zero = two;
  zero.expected = 0;
  CHECK(f.build(*f.replace, zero.json()).error->type == ErrorType::invalid_params);
  ReplaceArgs contradiction = three;
  contradiction.allowMultiple = false;
  CHECK(f.build(*f.replace, contradiction.json()).error->type == ErrorType::invalid_params);
}

TEST_CASE("edit: replace refuses identical strings and missing parameters") {
  Fixture f;
  f.root.write("a.txt", "same\n");
  auto same = f.build(*f.replace, ReplaceArgs{"a.txt", "same", "same"}.json());
  REQUIRE(same.error);
  CHECK(same.error->type == ErrorType::invalid_params);
  CHECK_THAT(same.error->message, Catch::Contains("identical"));
  auto missing = f.build(*f.replace, R"({"file_path": "a.txt", "old_string": "a", "new_string": "b"})");
  REQUIRE(missing.error);
  CHECK(missing.error->type == ErrorType::invalid_params);
  CHECK_THAT(missing.error->message, Catch::Contains("instruction"));
}

TEST_CASE("edit: replace with an empty old_string creates a file, and refuses one that exists") {
  Fixture f;
  auto created = f.run(*f.replace, ReplaceArgs{"new/dir/file.txt", "", "line 1\r\nline 2"}.json());
  REQUIRE_FALSE(created.error);
  fs::path file = f.root.path / "new/dir/file.txt";
  CHECK(readFile(file) == "line 1\r\nline 2");  // a new file is written as given
  CHECK_FALSE(diffOf(created).oldText.has_value());
  CHECK(diffOf(created).newText == "line 1\nline 2");
  CHECK_THAT(llmText(created), Catch::Contains("Created new file: " + file.string()));

  auto exists = f.run(*f.replace, ReplaceArgs{"new/dir/file.txt", "", "other"}.json());
  CHECK(errorOf(exists) == ErrorType::invalid_params);
  CHECK_THAT(exists.error->message, Catch::Contains("already exists"));
  CHECK(readFile(file) == "line 1\r\nline 2");

  auto missing = f.run(*f.replace, ReplaceArgs{"absent.txt", "x", "y"}.json());
  CHECK(errorOf(missing) == ErrorType::file_not_found);
  CHECK_FALSE(fs::exists(f.root.path / "absent.txt"));
}

TEST_CASE("edit: replace keeps a CRLF file with a BOM in CRLF with its BOM") {
  Fixture f;
  const std::string bom = "\xEF\xBB\xBF";
  fs::path file = f.root.write("win.cs", bom + "class A {\r\n  int x = 1;\r\n}\r\n");
  // The model writes LF (it saw normalized text); CRLF in its strings matches too.
  auto result = f.run(*f.replace, ReplaceArgs{"win.cs", "{\n  int x = 1;\n}", "{\n  int x = 2;\n  int y = 3;\n}"}.json());
  REQUIRE_FALSE(result.error);
  CHECK(readFile(file) == bom + "class A {\r\n  int x = 2;\r\n  int y = 3;\r\n}\r\n");
  CHECK(diffOf(result).oldText == std::optional<std::string>("class A {\n  int x = 1;\n}\n"));
  CHECK(diffOf(result).newText == "class A {\n  int x = 2;\n  int y = 3;\n}\n");

  REQUIRE_FALSE(f.run(*f.replace, ReplaceArgs{"win.cs", "int y = 3;\r\n}", "int y = 4;\r\n}"}.json()).error);
  CHECK(readFile(file) == bom + "class A {\r\n  int x = 2;\r\n  int y = 4;\r\n}\r\n");
}

TEST_CASE("edit: a file without a final newline stays without, one with keeps it") {
  Fixture f;
  fs::path bare = f.root.write("bare.txt", "alpha\nbeta");
  REQUIRE_FALSE(f.run(*f.replace, ReplaceArgs{"bare.txt", "beta", "gamma"}.json()).error);
  CHECK(readFile(bare) == "alpha\ngamma");

  fs::path ended = f.root.write("ended.txt", "alpha\r\nbeta\r\n");
  // Removing the last line together with its newline still ends the file with one.
  REQUIRE_FALSE(f.run(*f.replace, ReplaceArgs{"ended.txt", "\nbeta\n", ""}.json()).error);
  CHECK(readFile(ended) == "alpha\r\n");
}

TEST_CASE("edit: replace describes itself with the path and the instruction's first line") {
  Fixture f;
  f.root.write("src/a.txt", "a");
  ReplaceArgs args{"src/a.txt", "a", "b"};
  args.instruction = "Rename the variable a to b everywhere it is used, because the old name collides with a "
                     "parameter of the enclosing function\nSecond line";
  auto built = f.build(*f.replace, args.json());
  REQUIRE(built.invocation);
  std::string d = built.invocation->description();
  CHECK_THAT(d, Catch::StartsWith("src/a.txt: Rename the variable a to b"));
  CHECK_THAT(d, Catch::EndsWith("..."));
  CHECK(d.find("Second") == std::string::npos);
  CHECK(d.size() <= 11 + 80);
  REQUIRE(built.invocation->locations().size() == 1);
  CHECK(built.invocation->locations()[0].path == f.path("src/a.txt"));
  CHECK(f.replace->info().displayName == "Edit");
  CHECK(f.replace->kind() == Kind::edit);
}

// ---------------------------------------------------------------- write_file

TEST_CASE("edit: write_file creates a new file with its parents") {
  Fixture f;
  auto result = f.run(*f.writeFile, writeArgs("docs/notes/a.md", "# Title\n\nText\n"));
  REQUIRE_FALSE(result.error);
  fs::path file = f.root.path / "docs/notes/a.md";
  CHECK(readFile(file) == "# Title\n\nText\n");
  CHECK(llmText(result) == "Created new file " + file.string() + " with 3 lines.");
  const FileDiff& diff = diffOf(result);
  CHECK(diff.path == file.string());
  CHECK_FALSE(diff.oldText.has_value());
  CHECK(diff.newText == "# Title\n\nText\n");
  CHECK(f.writeFile->info().displayName == "WriteFile");
  CHECK(f.writeFile->kind() == Kind::edit);
}

TEST_CASE("edit: write_file over an existing file keeps its format") {
  Fixture f;
  fs::path file = f.root.write("win.txt", "\xEF\xBB\xBF" "one\r\ntwo\r\n");
  REQUIRE(::chmod(file.c_str(), 0755) == 0);
  auto result = f.run(*f.writeFile, writeArgs("win.txt", "one\nTWO\nthree"));
  REQUIRE_FALSE(result.error);
  CHECK(readFile(file) == "\xEF\xBB\xBF" "one\r\nTWO\r\nthree\r\n");
  CHECK(modeOf(file) == 0755);
  CHECK(llmText(result) == "Wrote 3 lines to " + file.string() + ".");
  CHECK(diffOf(result).oldText == std::optional<std::string>("one\ntwo\n"));
  CHECK(diffOf(result).newText == "one\nTWO\nthree\n");

  fs::path bare = f.root.write("bare.txt", "no newline");
  REQUIRE_FALSE(f.run(*f.writeFile, writeArgs("bare.txt", "still none")).error);
  CHECK(readFile(bare) == "still none");
  CHECK(f.root.entries() == std::vector<std::string>{"bare.txt", "win.txt"});
}

TEST_CASE("edit: write_file refuses directories") {
  Fixture f;
  fs::create_directory(f.root.path / "dir");
  auto built = f.build(*f.writeFile, writeArgs("dir", "x"));
  REQUIRE(built.error);
  CHECK(built.error->type == ErrorType::is_directory);
  auto replaced = f.build(*f.replace, ReplaceArgs{"dir", "a", "b"}.json());
  REQUIRE(replaced.error);
  CHECK(replaced.error->type == ErrorType::is_directory);
}

// ---------------------------------------------------------------- confirmation

TEST_CASE("edit: confirmation carries the diff and nothing is written before execute") {
  Fixture f;
  fs::path file = f.root.write("a.txt", "one\ntwo\n");

  auto edit = f.build(*f.replace, ReplaceArgs{"a.txt", "two", "2"}.json());
  REQUIRE(edit.invocation);
  auto details = edit.invocation->shouldConfirmExecute(CancelToken());
  REQUIRE(details.ok());
  REQUIRE(details.value().has_value());
  REQUIRE(std::holds_alternative<EditConfirmation>(*details.value()));
  const auto& confirm = std::get<EditConfirmation>(*details.value());
  CHECK(confirm.title == "Confirm Edit: a.txt");
  CHECK(confirm.diff.path == file.string());
  CHECK(confirm.diff.oldText == std::optional<std::string>("one\ntwo\n"));
  CHECK(confirm.diff.newText == "one\n2\n");
  CHECK(readFile(file) == "one\ntwo\n");

  auto create = f.build(*f.writeFile, writeArgs("b/new.txt", "fresh\n"));
  REQUIRE(create.invocation);
  auto createDetails = create.invocation->shouldConfirmExecute(CancelToken());
  REQUIRE(createDetails.ok());
  const auto& createConfirm = std::get<EditConfirmation>(*createDetails.value());
  CHECK(createConfirm.title == "Confirm Write: b/new.txt");
  CHECK_FALSE(createConfirm.diff.oldText.has_value());
  CHECK(createConfirm.diff.newText == "fresh\n");
  CHECK(f.root.entries() == std::vector<std::string>{"a.txt"});

  REQUIRE_FALSE(edit.invocation->execute(CancelToken(), {}).error);
  REQUIRE_FALSE(create.invocation->execute(CancelToken(), {}).error);
  CHECK(readFile(file) == "one\n2\n");
  CHECK(readFile(f.root.path / "b/new.txt") == "fresh\n");
}

TEST_CASE("edit: a file changed after approval is not clobbered") {
  Fixture f;
  fs::path file = f.root.write("a.txt", "v1\n");
  auto write = f.build(*f.writeFile, writeArgs("a.txt", "model\n"));
  auto edit = f.build(*f.replace, ReplaceArgs{"a.txt", "v1", "v2"}.json());
  REQUIRE(write.invocation->shouldConfirmExecute(CancelToken()).ok());
  REQUIRE(edit.invocation->shouldConfirmExecute(CancelToken()).ok());
  f.root.write("a.txt", "v1 and a person's change\n");
  auto wrote = write.invocation->execute(CancelToken(), {});
  auto edited = edit.invocation->execute(CancelToken(), {});
  CHECK(errorOf(wrote) == ErrorType::execution_failed);
  CHECK(errorOf(edited) == ErrorType::execution_failed);
  CHECK_THAT(wrote.error->message, Catch::Contains("changed after"));
  CHECK(readFile(file) == "v1 and a person's change\n");

  // A new file that appeared after approval is not overwritten either.
  auto create = f.build(*f.writeFile, writeArgs("b.txt", "model\n"));
  REQUIRE(create.invocation->shouldConfirmExecute(CancelToken()).ok());
  f.root.write("b.txt", "someone else\n");
  CHECK(errorOf(create.invocation->execute(CancelToken(), {})) == ErrorType::execution_failed);
  CHECK(readFile(f.root.path / "b.txt") == "someone else\n");

  // Without a confirmation step (auto-approved), execute works on what is there.
  auto direct = f.build(*f.replace, ReplaceArgs{"a.txt", "person's", "reviewer's"}.json());
  REQUIRE_FALSE(direct.invocation->execute(CancelToken(), {}).error);
  CHECK(readFile(file) == "v1 and a reviewer's change\n");
}

TEST_CASE("edit: a failing store leaves the original intact and says why") {
  Fixture f(std::make_shared<FailingWriteStore>());
  fs::path file = f.root.write("a.txt", "keep me\n");
  auto edited = f.run(*f.replace, ReplaceArgs{"a.txt", "keep", "lose"}.json());
  CHECK(errorOf(edited) == ErrorType::execution_failed);
  CHECK_THAT(edited.error->message, Catch::Contains("No space left on device"));
  auto written = f.run(*f.writeFile, writeArgs("a.txt", "gone\n"));
  CHECK(errorOf(written) == ErrorType::execution_failed);
  CHECK(readFile(file) == "keep me\n");
  auto cancel = CancelToken::create();
  cancel.cancel();
  auto built = f.build(*f.writeFile, writeArgs("a.txt", "gone\n"));
  CHECK(errorOf(built.invocation->execute(cancel, {})) == ErrorType::cancelled);
}

TEST_CASE("edit: a call that could not be confirmed never writes, even if it would apply later") {
  Fixture f;
  fs::path file = f.root.write("a.txt", "before\n");
  auto edit = f.build(*f.replace, ReplaceArgs{"a.txt", "after", "later"}.json());
  auto details = edit.invocation->shouldConfirmExecute(CancelToken());
  REQUIRE(details.ok());
  CHECK_FALSE(details.value().has_value());  // nothing to show: the edit does not apply
  f.root.write("a.txt", "after\n");
  CHECK(errorOf(edit.invocation->execute(CancelToken(), {})) == ErrorType::no_occurrence_found);
  CHECK(readFile(file) == "after\n");
}

TEST_CASE("edit: replace refuses binary and oversized files, mixed line endings follow the majority") {
  Fixture f;
  f.root.write("blob.bin", std::string("ab\0cd", 5));
  CHECK(errorOf(f.run(*f.replace, ReplaceArgs{"blob.bin", "ab", "xy"}.json())) == ErrorType::binary_file);

  f.context.limits.maxFileBytes = 16;
  auto small = makeReplaceTool(f.context);
  f.root.write("big.txt", std::string(17, 'x'));
  CHECK(errorOf(f.run(*small, ReplaceArgs{"big.txt", "x", "y"}.json())) == ErrorType::file_too_large);

  fs::path mixed = f.root.write("mixed.txt", "a\r\nb\r\nc\nd\r\n");
  REQUIRE_FALSE(f.run(*f.replace, ReplaceArgs{"mixed.txt", "c\nd", "C\nD"}.json()).error);
  CHECK(readFile(mixed) == "a\r\nb\r\nC\r\nD\r\n");
}

// ---------------------------------------------------------------- confinement

TEST_CASE("edit: paths outside the workspace are refused and nothing is written") {
  Fixture f;
  fs::create_directory_symlink(f.outside.path, f.root.path / "out");
  f.outside.write("victim.txt", "outside\n");
  const std::vector<std::string> paths = {"../escape.txt", (f.outside.path / "victim.txt").string(),
                                          (f.outside.path / "new.txt").string(), "out/victim.txt", "out/new.txt",
                                          "sub/../../escape.txt"};
  for (const auto& p : paths) {
    CAPTURE(p);
    auto write = f.build(*f.writeFile, writeArgs(p, "pwned\n"));
    REQUIRE(write.error);
    CHECK(write.error->type == ErrorType::path_not_in_workspace);
    auto edit = f.build(*f.replace, ReplaceArgs{p, "outside", "pwned"}.json());
    REQUIRE(edit.error);
    CHECK(edit.error->type == ErrorType::path_not_in_workspace);
    auto create = f.build(*f.replace, ReplaceArgs{p, "", "pwned"}.json());
    REQUIRE(create.error);
    CHECK(create.error->type == ErrorType::path_not_in_workspace);
  }
  CHECK(f.outside.entries() == std::vector<std::string>{"victim.txt"});
  CHECK(readFile(f.outside.path / "victim.txt") == "outside\n");
  CHECK(f.root.entries() == std::vector<std::string>{"out"});
  CHECK_FALSE(fs::exists(f.root.path.parent_path() / "escape.txt"));
}

// ---------------------------------------------------------------- editor buffers

TEST_CASE("edit: tools read and write only through ToolContext::files") {
  auto buffers = std::make_shared<MemoryFileStore>();
  Fixture f(buffers);
  fs::path file = f.root.write("a.txt", "disk: hello\n");
  buffers->buffers[file.string()] = "unsaved: hello\r\n";

  auto edited = f.run(*f.replace, ReplaceArgs{"a.txt", "unsaved: hello", "unsaved: bye"}.json());
  REQUIRE_FALSE(edited.error);
  CHECK(buffers->buffers[file.string()] == "unsaved: bye\r\n");
  CHECK(diffOf(edited).oldText == std::optional<std::string>("unsaved: hello\n"));
  CHECK(readFile(file) == "disk: hello\n");

  // Text that is only on disk is not there for the edit.
  auto onDisk = f.run(*f.replace, ReplaceArgs{"a.txt", "disk: hello", "x"}.json());
  CHECK(errorOf(onDisk) == ErrorType::no_occurrence_found);

  // A file the editor does not know is new to the tools: created in the store only.
  auto created = f.run(*f.writeFile, writeArgs("b.txt", "buffer only\n"));
  REQUIRE_FALSE(created.error);
  CHECK_FALSE(diffOf(created).oldText.has_value());
  CHECK(buffers->buffers[f.path("b.txt")] == "buffer only\n");
  CHECK_FALSE(fs::exists(f.root.path / "b.txt"));

  auto rewritten = f.run(*f.writeFile, writeArgs("a.txt", "whole\nnew"));
  REQUIRE_FALSE(rewritten.error);
  CHECK(buffers->buffers[file.string()] == "whole\r\nnew\r\n");
  CHECK(readFile(file) == "disk: hello\n");
  CHECK(f.root.entries() == std::vector<std::string>{"a.txt"});
  CHECK(buffers->writes == 3);
}

TEST_CASE("edit: replace matches ignoring indentation when nothing matches exactly, re-indenting new_string") {
  Fixture f;
  fs::path file = f.root.write("a.py", "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        pass\n");
  // The model lost the class's indentation level.
  auto result = f.run(*f.replace, ReplaceArgs{"a.py", "def f(self):\n    return 1", "def f(self):\n    x = 2\n    return x"}.json());
  REQUIRE_FALSE(result.error);
  CHECK(readFile(file) == "class A:\n    def f(self):\n        x = 2\n        return x\n\n    def g(self):\n        pass\n");
  CHECK(llmText(result).find("matched ignoring indentation") != std::string::npos);
  // The person was shown the real change.
  CHECK(diffOf(result).newText.find("        x = 2\n") != std::string::npos);

  // Exact first: an exact match elsewhere wins over a flexible one.
  fs::path two = f.root.write("b.txt", "  b\nb\n");
  REQUIRE_FALSE(f.run(*f.replace, ReplaceArgs{"b.txt", "\nb", "\nc"}.json()).error);
  CHECK(readFile(two) == "  b\nc\n");

  // Still refusing ambiguity.
  fs::path amb = f.root.write("c.txt", "  a\n  b\n    a\n    b\n");
  auto ambiguous = f.run(*f.replace, ReplaceArgs{"c.txt", "a\nb", "c\nd"}.json());
  CHECK(errorOf(ambiguous) == ErrorType::occurrence_count_mismatch);
  CHECK(readFile(amb) == "  a\n  b\n    a\n    b\n");
}

TEST_CASE("edit: replace matches whitespace differences inside lines as a last chance, and says so") {
  Fixture f;
  fs::path file = f.root.write("a.c", "int main(void) {\n    call( a,  b );\n    return 0;\n}\n");
  auto result = f.run(*f.replace, ReplaceArgs{"a.c", "  call(a, b);\n  return 0;", "  call(a, b, c);\n  return 0;"}.json());
  REQUIRE_FALSE(result.error);
  CHECK(readFile(file) == "int main(void) {\n    call(a, b, c);\n    return 0;\n}\n");
  CHECK(llmText(result).find("inside lines too") != std::string::npos);

  // Blanks between words still count: "intx" is not "int x".
  fs::path words = f.root.write("b.c", "int x;\n");
  auto missed = f.run(*f.replace, ReplaceArgs{"b.c", "intx;", "int y;"}.json());
  CHECK(errorOf(missed) == ErrorType::no_occurrence_found);
  CHECK(readFile(words) == "int x;\n");
}

TEST_CASE("edit: a near miss shows the closest text of the file, with its line") {
  Fixture f;
  f.root.write("a.py", "import os\n\ndef load(path):\n    with open(path) as handle:\n        return handle.read()\n");
  auto result = f.run(*f.replace, ReplaceArgs{"a.py", "def load(path):\n    with open(path, 'r') as fh:\n        return fh.read()",
                                              "def load(path):\n    return open(path).read()"}.json());
  CHECK(errorOf(result) == ErrorType::no_occurrence_found);
  CHECK_THAT(result.error->message, Catch::Contains("closest text in the file starts at line 3") &&
                                        Catch::Contains("with open(path) as handle:"));
  // Nothing alike: no guess is offered.
  auto unrelated = f.run(*f.replace, ReplaceArgs{"a.py", "zzz qqq", "x"}.json());
  CHECK(unrelated.error->message.find("closest text") == std::string::npos);
}
