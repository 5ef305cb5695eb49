// Installing, linking, removing, enabling and disabling extensions.
#include "engine/extensions/extension_store.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include "engine/extensions/extension_enablement.h"
#include "protocol/base/json.h"
#include "protocol/base/private_file.h"
#include "protocol/base/text.h"
#include "tools/process/captured_run.h"

namespace lathe::engine {
namespace {

namespace fs = std::filesystem;

// A clone in a temporary folder, removed when this goes.
struct TempFolder {
  std::string path;
  ~TempFolder() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

Result<std::string> runGit(const std::vector<std::string>& args, const std::string& cwd) {
  tools::process::CapturedRunSpec spec;
  spec.argv = {"git"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.cwd = cwd;
  // Never a prompt for a password on a terminal nobody watches.
  spec.env.set = {{"GIT_TERMINAL_PROMPT", "0"}, {"GIT_ASKPASS", "true"}};
  spec.timeout = std::chrono::minutes(5);
  auto run = tools::process::runCaptured(spec, CancelToken());
  if (!run) return makeError(Errc::io, "git could not be run: " + run.error().message);
  if (!run->ok()) {
    std::string err(text::trim(run->err));
    return makeError(Errc::io, "git " + args.front() + " failed" + (err.empty() ? "" : ": " + err));
  }
  return run->out;
}

Status cloneInto(const std::string& url, const std::optional<std::string>& ref, const std::string& folder) {
  if (auto cloned = runGit({"clone", "--depth", "1", "--", url, folder}, "/"); !cloned) return cloned.error();
  if (!ref) return {};
  if (auto fetched = runGit({"fetch", "--depth", "1", "origin", *ref}, folder); !fetched) return fetched.error();
  if (auto checked = runGit({"checkout", "--quiet", "FETCH_HEAD"}, folder); !checked) return checked.error();
  return {};
}

// The copy is the person's: every file of it writable by them.
Status copyFolder(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (ec) return makeError(Errc::io, "cannot copy " + from + " to " + to + ": " + ec.message());
  for (fs::recursive_directory_iterator it(to, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_symlink(ec)) continue;
    fs::permissions(it->path(), it->is_directory(ec) ? fs::perms::owner_all : fs::perms::owner_read | fs::perms::owner_write,
                    fs::perm_options::add, ec);
  }
  return {};
}

std::string metadataJson(const InstallMetadata& metadata) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "source", metadata.source);
    json::put(w, "type", metadata.type);
    if (metadata.ref) json::put(w, "ref", *metadata.ref);
    w.EndObject();
  });
}

std::string commandLine(const tools::mcp::StdioTransport& stdio) {
  std::string line = stdio.command;
  for (const auto& arg : stdio.args) line += " " + arg;
  return line;
}

}  // namespace

bool isGitSource(const std::string& source) {
  for (const char* scheme : {"http://", "https://", "git@", "sso://", "github:", "gitlab:", "ssh://", "file://"}) {
    if (source.starts_with(scheme)) return true;
  }
  return false;
}

std::string consentText(const Extension& ext) {
  std::string out = "Installing the extension \"" + ext.name + "\" (" + ext.version + ")" +
                    (ext.install ? " from " + ext.install->source : "") + ".";
  if (!ext.mcpServers.empty()) {
    out += "\nIt starts these MCP servers in every session where it is enabled:";
    for (const auto& server : ext.mcpServers) {
      if (auto* stdio = std::get_if<tools::mcp::StdioTransport>(&server.transport)) {
        out += "\n  - " + server.name + " (local): " + commandLine(*stdio);
        if (stdio->cwd) out += "\n    in " + *stdio->cwd;
        if (!stdio->env.empty()) {
          out += "\n    with";
          for (const auto& [name, value] : stdio->env) out += " " + name;
          out += " set";
        }
      } else {
        out += "\n  - " + server.name + " (remote): " + std::get<tools::mcp::HttpTransport>(server.transport).url;
      }
    }
  }
  for (const auto& file : ext.contextFiles) out += "\nIts context file " + file + " goes to the model in every session.";
  if (!ext.excludeTools.empty()) out += "\nIt takes these tools away from the model: " + text::join(ext.excludeTools, ", ");
  if (!ext.hooksJson.empty()) out += "\nIt has hooks (" + ext.hooksFile + "), which run commands by themselves.";
  if (!ext.skills.empty()) {
    out += "\nIt brings these agent skills:";
    for (const auto& skill : ext.skills) out += "\n  - " + skill.name + ": " + skill.description;
  }
  if (!ext.policiesDir.empty()) out += "\nIt brings policy rules (" + ext.policiesDir + ").";
  out += "\nExtensions run with your permissions. Install only extensions you trust.";
  return out;
}

ExtensionStore::ExtensionStore(std::string geminiDir, std::string home, EnvLookup env, ExtensionFilter filter)
    : geminiDir_(std::move(geminiDir)),
      dir_(geminiDir_ + "/extensions"),
      home_(std::move(home)),
      env_(std::move(env)),
      filter_(std::move(filter)) {}

ExtensionScan ExtensionStore::list(const std::string& workspaceDir) const {
  return loadExtensions(geminiDir_, workspaceDir, env_, filter_);
}

Result<Extension> ExtensionStore::install(const std::string& source, const std::optional<std::string>& ref, bool link,
                                          const std::string& cwd, const Consent& consent) const {
  if (isGitSource(source)) {
    if (link) return makeError(Errc::invalid_params, "only a local folder can be linked, not " + source);
    if (std::string why = filteredOut(InstallMetadata{source, "git", ref}, filter_); !why.empty()) {
      return makeError(Errc::forbidden, "not installed: " + why);
    }
    TempFolder clone;
    char pattern[] = "/tmp/lathe-extension-XXXXXX";
    if (!::mkdtemp(pattern)) return makeError(Errc::io, "cannot make a temporary folder for the clone");
    clone.path = pattern;
    fs::remove(clone.path);  // git makes it
    if (auto cloned = cloneInto(source, ref, clone.path); !cloned) {
      return makeError(Errc::io, "cannot clone " + source + ": " + cloned.error().message);
    }
    return placeInstalled(clone.path, InstallMetadata{source, "git", ref}, cwd, consent);
  }
  if (ref) return makeError(Errc::invalid_params, "--ref applies to git sources, not to the folder " + source);
  std::error_code ec;
  fs::path folder = fs::absolute(fs::path(cwd) / source, ec);
  if (!fs::is_directory(folder, ec)) return makeError(Errc::not_found, "no folder " + folder.string() + " to install from");
  std::string real = fs::canonical(folder, ec).string();
  return placeInstalled(real, InstallMetadata{real, link ? "link" : "local", std::nullopt}, cwd, consent);
}

Result<Extension> ExtensionStore::placeInstalled(const std::string& from, InstallMetadata metadata,
                                                 const std::string& cwd, const Consent& consent) const {
  if (std::string why = filteredOut(metadata, filter_); !why.empty()) return makeError(Errc::forbidden, "not installed: " + why);
  std::vector<std::string> notes;
  auto ext = readExtension(from, dir_, cwd, env_, notes);
  if (!ext) return ext.error();
  ext->install = metadata;
  auto installed = list(cwd);
  if (std::any_of(installed.extensions.begin(), installed.extensions.end(),
                  [&](const Extension& e) { return e.name == ext->name; })) {
    return makeError(Errc::invalid_params, "the extension \"" + ext->name + "\" is already installed: uninstall it first");
  }
  const std::string destination = dir_ + "/" + ext->name;
  std::error_code ec;
  if (fs::exists(destination, ec)) {
    return makeError(Errc::invalid_params, destination + " exists already: remove it before installing \"" + ext->name + "\"");
  }
  if (consent && !consent(consentText(*ext))) {
    return makeError(Errc::cancelled, "not installed: \"" + ext->name + "\" was not agreed to");
  }
  fs::create_directories(dir_, ec);
  if (metadata.type == "link") {
    fs::create_directories(destination, ec);
    if (ec) return makeError(Errc::io, "cannot make " + destination + ": " + ec.message());
  } else if (auto copied = copyFolder(from, destination); !copied) {
    return copied.error();
  }
  if (auto written = writePrivateFile(destination + "/" + kInstallMetadataName, metadataJson(metadata) + "\n"); !written) {
    return written.error();
  }
  if (auto enabled = ExtensionEnablement(dir_ + "/" + kEnablementName).enable(ext->name, home_); !enabled) {
    return enabled.error();
  }
  notes.clear();
  return readExtension(destination, dir_, cwd, env_, notes);
}

Status ExtensionStore::uninstall(const std::string& nameOrSource) const {
  auto installed = list(home_);
  auto it = std::find_if(installed.extensions.begin(), installed.extensions.end(), [&](const Extension& e) {
    return text::lower(e.name) == text::lower(nameOrSource) ||
           (e.install && text::lower(e.install->source) == text::lower(nameOrSource));
  });
  if (it == installed.extensions.end()) return makeError(Errc::not_found, "no extension \"" + nameOrSource + "\" is installed");
  std::error_code ec;
  fs::remove_all(it->installDir, ec);
  if (ec) return makeError(Errc::io, "cannot remove " + it->installDir + ": " + ec.message());
  return ExtensionEnablement(dir_ + "/" + kEnablementName).remove(it->name);
}

Status ExtensionStore::setEnabled(const std::string& name, const std::string& folder, bool enabled) const {
  auto installed = list(folder);
  if (std::none_of(installed.extensions.begin(), installed.extensions.end(), [&](const Extension& e) { return e.name == name; })) {
    return makeError(Errc::not_found, "no extension \"" + name + "\" is installed");
  }
  ExtensionEnablement enablement(dir_ + "/" + kEnablementName);
  return enabled ? enablement.enable(name, folder) : enablement.disable(name, folder);
}

}  // namespace lathe::engine
