// What the model sees of the place it works in before it is asked anything.
#include "engine/session/session_context.h"

#include <sys/utsname.h>

#include <ctime>
#include <mutex>

#include "engine/session/git_state.h"

namespace lathe::engine {
namespace {

constexpr std::string_view kOpen = "<session_context>";

std::string operatingSystem() {
  utsname uts{};
  if (::uname(&uts) != 0) return "unknown";
  return std::string(uts.sysname) + " " + uts.release + " (" + uts.machine + ")";
}

}  // namespace

std::string todayLong() {
  // std::localtime shares one buffer and re-reads TZ on every call: the zone
  // is read once and each call fills its own tm.
  static std::once_flag zone;
  std::call_once(zone, [] { ::tzset(); });
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  char weekdayMonth[48];
  if (!::localtime_r(&now, &tm) || std::strftime(weekdayMonth, sizeof weekdayMonth, "%A, %B", &tm) == 0) return "";
  // The day without a leading zero ("December 1"): strftime's %-d is a glibc extension.
  return std::string(weekdayMonth) + " " + std::to_string(tm.tm_mday) + ", " + std::to_string(tm.tm_year + 1900);
}

std::string buildSessionContext(const tools::Workspace& workspace, const SessionContextOptions& options,
                                const CancelToken& cancel) {
  std::string out(kOpen);
  out += "\nThe place this session works in, as it was when the session started or resumed.\n";
  if (auto date = todayLong(); !date.empty()) out += "Today's date: " + date + "\n";
  out += "Operating system: " + operatingSystem() + "\n";
  out += "Workspace folders (every path the tools touch must lie inside one):\n";
  for (const auto& root : workspace.roots()) out += "- " + root + "\n";
  FolderTreeOptions tree;
  tree.maxItems = std::max<size_t>(1, options.treeItems / workspace.roots().size());
  for (const auto& root : workspace.roots()) {
    if (options.git) {
      if (auto git = readGitState(root, cancel)) out += "Git in " + root + ": " + describeGitState(*git) + "\n";
    }
    std::string listing = folderTree(root, tree, cancel);
    if (listing.empty()) continue;
    out += "\nFolder tree of " + root + " (up to " + std::to_string(tree.maxItems) +
           " entries, nearest first; ignored files left out; … marks a folder not shown in full):\n" + listing;
  }
  if (!options.extensionContext.empty()) {
    out += "\n<loaded_context>\n<extension_context>\n" + options.extensionContext +
           "\n</extension_context>\n</loaded_context>\n";
  }
  out += "</session_context>";
  return out;
}

bool isSessionContext(const Part& part) { return part.text && part.text->starts_with(kOpen); }

}  // namespace lathe::engine
