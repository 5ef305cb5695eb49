// Read tools read text through the session's FileStore (the editor's unsaved
// buffers), like the edit tools: a store whose text differs from the disk is
// what the model reads; a file only in the store is readable; images and
// binaries are still judged on the disk.
#include <catch2/catch.hpp>

#include <map>
#include <mutex>

#include "tests/support/temp_dir.h"
#include "tests/tools/core/tool_fixture.h"
#include "tools/files/file_tools.h"
#include "tools/syntax/syntax_tools.h"
#include "tools/core/file_store.h"

using namespace lathe;
using namespace lathe::tools;
using lathe::testing::llmText;
using lathe::testing::ToolFixture;

namespace {

// An editor with open buffers: those paths read from the buffer, others from
// the disk; writes land in the buffer.
class BufferStore final : public FileStore {
 public:
  Result<std::string> readText(const std::string& path, const CancelToken& cancel) override {
    {
      std::lock_guard lock(mutex_);
      ++reads;
      if (auto it = buffers.find(path); it != buffers.end()) return it->second;
    }
    return disk_->readText(path, cancel);
  }
  Status writeText(const std::string& path, const std::string& content, const CancelToken&) override {
    std::lock_guard lock(mutex_);
    buffers[path] = content;
    return {};
  }
  std::map<std::string, std::string> buffers;
  int reads = 0;

 private:
  std::mutex mutex_;
  std::shared_ptr<FileStore> disk_ = makeDiskFileStore();
};

struct StoreFixture : ToolFixture {
  std::shared_ptr<BufferStore> store = std::make_shared<BufferStore>();
  StoreFixture() { context.files = store; }
  std::string path(const std::string& rel) const { return (root.path / rel).string(); }
  std::string args(const std::string& key, const std::string& value) const {
    return json::build([&](json::Writer& w) {
      w.StartObject();
      json::put(w, key.c_str(), value);
      w.EndObject();
    });
  }
};

}  // namespace

TEST_CASE("store reads: read_file shows the editor's unsaved buffer, not the disk") {
  StoreFixture f;
  f.root.write("a.txt", "on disk\n");
  f.store->buffers[f.path("a.txt")] = "unsaved line one\nunsaved line two\n";
  auto tool = makeReadFileTool(f.context);
  auto result = f.run(*tool, f.args("file_path", "a.txt"));
  REQUIRE_FALSE(result.error);
  CHECK(llmText(result).find("unsaved line two") != std::string::npos);
  CHECK(llmText(result).find("on disk") == std::string::npos);
  CHECK(f.store->reads == 1);
}

TEST_CASE("store reads: a file that exists only in the store is readable") {
  StoreFixture f;
  f.store->buffers[f.path("new.py")] = "def only_in_buffer():\n    return 1\n";
  auto read = makeReadFileTool(f.context);
  auto result = f.run(*read, f.args("file_path", "new.py"));
  REQUIRE_FALSE(result.error);
  CHECK(llmText(result).find("only_in_buffer") != std::string::npos);

  auto many = makeReadManyFilesTool(f.context);
  auto manyResult = f.run(*many, "{\"include\": [\"new.py\"]}");
  REQUIRE_FALSE(manyResult.error);
  CHECK(llmText(manyResult).find("only_in_buffer") != std::string::npos);

  auto outline = makeOutlineTool(f.context);
  auto outlined = f.run(*outline, f.args("path", "new.py"));
  REQUIRE_FALSE(outlined.error);
  CHECK(llmText(outlined).find("only_in_buffer") != std::string::npos);

  auto missing = f.run(*read, f.args("file_path", "nowhere.txt"));
  REQUIRE(missing.error);
  CHECK(missing.error->type == ErrorType::file_not_found);
}

TEST_CASE("store reads: read_many_files and read_outline read the buffers too") {
  StoreFixture f;
  f.root.write("src/m.py", "def on_disk():\n    pass\n");
  f.root.write("src/n.txt", "plain disk text\n");
  f.store->buffers[f.path("src/m.py")] = "def in_buffer():\n    pass\n";
  f.store->buffers[f.path("src/n.txt")] = "buffer text\n";

  auto many = makeReadManyFilesTool(f.context);
  auto result = f.run(*many, "{\"include\": [\"src/**\"]}");
  REQUIRE_FALSE(result.error);
  std::string text = llmText(result);
  CHECK(text.find("in_buffer") != std::string::npos);
  CHECK(text.find("buffer text") != std::string::npos);
  CHECK(text.find("on_disk") == std::string::npos);
  CHECK(text.find("plain disk text") == std::string::npos);

  auto outline = makeOutlineTool(f.context);
  auto file = f.run(*outline, f.args("path", "src/m.py"));
  REQUIRE_FALSE(file.error);
  CHECK(llmText(file).find("in_buffer") != std::string::npos);
  CHECK(llmText(file).find("on_disk") == std::string::npos);
  auto dir = f.run(*outline, f.args("path", "src"));
  REQUIRE_FALSE(dir.error);
  CHECK(llmText(dir).find("in_buffer") != std::string::npos);
  CHECK(llmText(dir).find("on_disk") == std::string::npos);
}

TEST_CASE("store reads: what read_file showed is what replace matches") {
  StoreFixture f;
  f.root.write("g.txt", "hello disk\n");
  f.store->buffers[f.path("g.txt")] = "hello buffer\n";
  auto read = makeReadFileTool(f.context);
  REQUIRE(llmText(f.run(*read, f.args("file_path", "g.txt"))).find("hello buffer") != std::string::npos);
  auto replace = makeReplaceTool(f.context);
  auto result = f.run(*replace, "{\"file_path\": \"g.txt\", \"instruction\": \"greet\", \"old_string\": "
                                "\"hello buffer\", \"new_string\": \"bye buffer\"}");
  REQUIRE_FALSE(result.error);
  CHECK(f.store->buffers[f.path("g.txt")] == "bye buffer\n");
}

TEST_CASE("store reads: binaries and images are still judged on the disk") {
  StoreFixture f;
  f.root.write("bin.dat", std::string("\x01\x02\0\x03", 4));
  f.store->buffers[f.path("bin.dat")] = "looks like text in the store";
  auto read = makeReadFileTool(f.context);
  auto binary = f.run(*read, f.args("file_path", "bin.dat"));
  REQUIRE(binary.error);
  CHECK(binary.error->type == ErrorType::binary_file);

  f.root.write("p.png", std::string("\x89PNG\r\n\x1a\n", 8));
  auto image = f.run(*read, f.args("file_path", "p.png"));
  REQUIRE_FALSE(image.error);
  REQUIRE(image.llmContent.size() == 1);
  CHECK(image.llmContent[0].mimeType == "image/png");
  CHECK(f.store->reads == 0);
}
