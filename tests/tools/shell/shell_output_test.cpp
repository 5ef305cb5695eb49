// How shell output is kept and shown: the buffer that keeps head and tail
// (saving the whole), and terminal text cleaned of escapes and bad bytes.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "tests/support/temp_dir.h"
#include "tools/shell/output_buffer.h"
#include "tools/shell/terminal_text.h"

using namespace lathe;
using namespace lathe::tools;
namespace fs = std::filesystem;
using lathe::testing::TempDir;
using lathe::testing::readFile;

TEST_CASE("output buffer: small output whole, large output head + note + tail") {
  TempDir dir;
  shell::OutputBuffer small({100, dir.path.string(), "small"});
  small.append("hello\n");
  small.finish();
  CHECK(small.modelText() == "hello\n");
  CHECK_FALSE(small.truncated());
  CHECK(small.savedPath().empty());

  shell::OutputBuffer big({1000, dir.path.string(), "big"});
  std::string all;
  for (int i = 0; i < 2000; ++i) {
    std::string line = (i == 1000 ? "WARNING: odd thing " : "line ") + std::to_string(i) + "\n";
    all += line;
    big.append(line);
  }
  big.finish();
  std::string text = big.modelText();
  CHECK(big.truncated());
  CHECK(text.rfind("line 0\n", 0) == 0);
  CHECK(text.find("line 1999\n") != std::string::npos);
  CHECK(text.find("WARNING: odd thing 1000") != std::string::npos);
  CHECK(text.find("characters omitted") != std::string::npos);
  CHECK(readFile(big.savedPath()) == all);
  CHECK(big.totalBytes() == all.size());
  CHECK(text.size() < 1600);

  shell::OutputBuffer unsaved({100, "", ""});
  unsaved.append(std::string(500, 'x'));
  CHECK(unsaved.modelText().find("was not saved") != std::string::npos);
}

TEST_CASE("output buffer: cuts never split a UTF-8 character") {
  shell::OutputBuffer buffer({101, "", ""});
  std::string euro = "\xE2\x82\xAC";  // 3 bytes
  for (int i = 0; i < 200; ++i) buffer.append(euro);
  std::string text = buffer.modelText();
  CHECK(text.find("\xEF\xBF\xBD") == std::string::npos);  // no replacement characters
  CHECK(text.find("characters omitted") != std::string::npos);
  std::string recent = buffer.recent(10);
  CHECK(recent.find("\xEF\xBF\xBD") == std::string::npos);
}

TEST_CASE("terminal text: escapes, carriage returns, invalid bytes") {
  CHECK(shell::terminalText("\x1b[31mred\x1b[0m plain") == "red plain");
  CHECK(shell::terminalText("\x1b]0;title\x07text") == "text");
  CHECK(shell::terminalText("10%\r50%\r100%\ndone\r\n") == "100%\ndone\n");
  CHECK(shell::terminalText("ab\bc") == "ac");
  CHECK(shell::terminalText("bad \xff byte") == "bad \xEF\xBF\xBD byte");
  CHECK(shell::terminalText("tab\tkept\x01") == "tab\tkept");
  CHECK(shell::countChars("a\xE2\x82\xAC") == 2);
}
