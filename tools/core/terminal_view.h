// How a running call shows a terminal in the editor, for editors that can:
// a terminal the editor runs itself (ACP terminal/create) is embedded in the
// call's content; the output of a command Lathe runs streams to a
// display-only terminal (Zed's terminal-output extension: _meta
// terminal_info, terminal_output, terminal_exit). The scheduler gives one to
// a call before it executes; valid until execute returns, on its thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lathe::tools {

class TerminalView {
 public:
  virtual ~TerminalView() = default;
  // The call's content shows this terminal of the editor's from now on.
  virtual void embed(const std::string& terminalId) = 0;
  // Whether the editor shows display-only terminals (start, write, exit).
  virtual bool streams() const = 0;
  // A display-only terminal for this call, running in cwd.
  virtual void start(const std::string& cwd) = 0;
  // Output as the command writes it (bytes, any split); sent at most every
  // few tens of milliseconds, the rest held until flush(), a later write or exit().
  virtual void write(std::string_view data) = 0;
  virtual void flush() = 0;
  // How the command ended; shown with the call's final update.
  virtual void exit(std::optional<int> exitCode, std::optional<std::string> signal) = 0;
};

}  // namespace lathe::tools
