// replace: literal text replacement in a file, or creation of a new file when
// old_string is empty. Matches against the normalized text (LF, no BOM) and
// writes back in the file's own format (BOM, CRLF, final newline). Reads and
// writes only through ToolContext::files. Confirmation and writing: see
// edit_invocation.h. Runs on a worker thread.
#include <string.h>
#include <sys/stat.h>

#include "tools/files/closest_text.h"
#include "tools/files/edit_invocation.h"
#include "tools/files/file_content.h"
#include "tools/files/file_tools.h"
#include "tools/files/flexible_match.h"
#include "tools/files/omission_placeholders.h"
#include "tools/files/text_format.h"

namespace lathe::tools {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "Path of the file to change: absolute, or relative to the workspace root."},
    "instruction": {"type": "string", "description": "What this change does and why, in one or two sentences (shown to the person reviewing it)."},
    "old_string": {"type": "string", "description": "The exact literal text to replace, copied from the file with its whitespace and indentation, with enough surrounding lines to match exactly one place. Empty to create a new file."},
    "new_string": {"type": "string", "description": "The exact literal text that replaces old_string."},
    "allow_multiple": {"type": "boolean", "description": "Replace every occurrence of old_string. When false (the default) old_string must match exactly once."},
    "expected_replacements": {"type": "integer", "minimum": 1, "description": "Older form: the exact number of occurrences to replace."}
  },
  "required": ["file_path", "instruction", "old_string", "new_string"]
})";

constexpr size_t kDescriptionChars = 80;

// At most `limit` bytes of the first line, cut on a UTF-8 boundary.
std::string firstLineShort(std::string_view text, size_t limit) {
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return {};
  text.remove_prefix(start);
  text = text.substr(0, text.find_first_of("\r\n"));
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (text.size() <= limit) return std::string(text);
  size_t cut = limit - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}


// Start offsets of the non-overlapping occurrences of a non-empty needle, left
// to right (glibc's memmem is about twice as fast as std::string::find here).
std::vector<size_t> findAll(std::string_view haystack, std::string_view needle) {
  std::vector<size_t> at;
  size_t from = 0;
  while (from + needle.size() <= haystack.size()) {
    const void* hit = ::memmem(haystack.data() + from, haystack.size() - from, needle.data(), needle.size());
    if (!hit) break;
    const size_t pos = static_cast<size_t>(static_cast<const char*>(hit) - haystack.data());
    at.push_back(pos);
    from = pos + needle.size();
  }
  return at;
}

struct EditParams {
  std::string path;         // absolute
  std::string instruction;
  std::string oldString;    // normalized (CRLF → LF)
  std::string newString;    // normalized, or as given when creating a file
  bool allowMultiple = false;
  std::optional<int64_t> expected;
};

class ReplaceInvocation final : public EditInvocation {
 public:
  ReplaceInvocation(EditTarget target, EditParams params)
      : EditInvocation(std::move(target.context), params.path, std::move(target.plan)), p_(std::move(params)) {}

  std::string description() const override {
    std::string text = context().workspace->relative(path());
    if (std::string what = firstLineShort(p_.instruction, kDescriptionChars); !what.empty()) return text + ": " + what;
    if (p_.oldString.empty()) return text + ": create file";
    return text + ": " + firstLineShort(p_.oldString, 30) + " => " + firstLineShort(p_.newString, 30);
  }

 private:
  std::string confirmTitle() const override { return "Confirm Edit: " + context().workspace->relative(path()); }

  std::string summary(const EditPlan& change) const override {
    if (!change.oldText) {
      return "Created new file: " + path() + " with " + std::to_string(countLines(change.newText)) + " lines.";
    }
    return "Successfully modified file: " + path() + " (" + std::to_string(change.replacements) +
           (change.replacements == 1 ? " replacement" : " replacements") +
           (change.looseWhitespace ? ", matched ignoring whitespace differences, inside lines too: check that the "
                                     "result is what you meant; new_string was re-indented to match the file)."
            : change.flexible ? ", matched ignoring indentation and surrounding whitespace; new_string was re-indented "
                                "to match the file)."
                              : ").");
  }

  PlannedEdit plan(const CancelToken& cancel) const override {
    PlannedEdit out;
    auto current = context().files->readText(path(), cancel);
    if (!current) {
      if (current.error().code != Errc::not_found) {
        out.error = ToolError{storeErrorType(current.error()), "Cannot read " + path() + ": " + current.error().message};
      } else if (!p_.oldString.empty()) {
        out.error = ToolError{ErrorType::file_not_found,
                              "File not found: " + path() +
                                  ". Check the path (list_directory or glob can find it); to create a new file, "
                                  "call replace with an empty old_string, or use write_file."};
      } else {
        // A new file is written exactly as given; the diff shows it normalized.
        out.plan.newText = normalize(p_.newString);
        if (out.plan.newText != p_.newString) out.plan.bytes = p_.newString;
      }
      return out;
    }
    if (p_.oldString.empty()) {
      out.error = ToolError{ErrorType::invalid_params,
                            "File already exists: " + path() +
                                ". An empty old_string creates a new file; to change this one, read it and give "
                                "the exact text to replace as old_string."};
      return out;
    }
    std::string raw = std::move(current).value();
    if (static_cast<int64_t>(raw.size()) > context().limits.maxFileBytes) {
      out.error = ToolError{ErrorType::file_too_large, path() + " is too large to edit (" + std::to_string(raw.size()) +
                                                           " bytes; the limit is " +
                                                           std::to_string(context().limits.maxFileBytes) + ")"};
      return out;
    }
    if (hasNulPrefix(raw)) {
      out.error = ToolError{ErrorType::binary_file, path() + " looks like a binary file; replace edits text files only"};
      return out;
    }
    if (cancel.cancelled()) {
      out.error = ToolError{ErrorType::cancelled, "Cancelled"};
      return out;
    }
    const TextFormat format = detectFormat(raw);
    std::string oldText = normalize(std::move(raw));

    const std::vector<size_t> at = findAll(oldText, p_.oldString);
    if (at.empty()) return planFlexible(std::move(oldText), format);
    if (auto problem = checkCount(at.size())) {
      out.error = std::move(problem);
      return out;
    }

    std::string newText;
    newText.reserve(oldText.size() - at.size() * p_.oldString.size() + at.size() * p_.newString.size() + 1);
    size_t from = 0;
    for (size_t pos : at) {
      newText.append(oldText, from, pos - from);
      newText += p_.newString;
      from = pos + p_.oldString.size();
    }
    newText.append(oldText, from);
    newText = conformFinalNewline(std::move(newText), format);

    if (needsRestore(format)) out.plan.bytes = restore(newText, format);
    out.plan.oldText = std::move(oldText);
    out.plan.newText = std::move(newText);
    out.plan.replacements = at.size();
    return out;
  }

  // No exact match: whole lines equal but for surrounding whitespace, with
  // new_string re-indented to the file's. Still one match unless more were
  // allowed; the diff shows the real change.
  PlannedEdit planFlexible(std::string oldText, const TextFormat& format) const {
    PlannedEdit out;
    LineMatch how = LineMatch::trimmed;
    std::vector<FlexibleMatch> matches = flexibleMatches(oldText, p_.oldString, p_.newString, how);
    if (matches.empty()) {
      how = LineMatch::looseWhitespace;
      matches = flexibleMatches(oldText, p_.oldString, p_.newString, how);
    }
    if (auto problem = checkCount(matches.size())) {
      if (matches.empty()) {
        if (auto closest = closestText(oldText, p_.oldString)) {
          problem->message += "\nThe closest text in the file starts at line " + std::to_string(closest->line) +
                              ":\n" + closest->text;
        }
      }
      out.error = std::move(problem);
      return out;
    }
    std::string newText;
    size_t from = 0;
    for (const auto& m : matches) {
      newText.append(oldText, from, m.begin - from);
      newText += m.replacement;
      from = m.end;
    }
    newText.append(oldText, from);
    newText = conformFinalNewline(std::move(newText), format);
    if (needsRestore(format)) out.plan.bytes = restore(newText, format);
    out.plan.oldText = std::move(oldText);
    out.plan.newText = std::move(newText);
    out.plan.replacements = matches.size();
    out.plan.flexible = true;
    out.plan.looseWhitespace = how == LineMatch::looseWhitespace;
    return out;
  }

  std::optional<ToolError> checkCount(size_t found) const {
    const std::string rel = context().workspace->relative(path());
    if (found == 0) {
      return ToolError{ErrorType::no_occurrence_found,
                       "Failed to edit " + rel +
                           ": old_string was not found, no changes were made. old_string must match the file "
                           "exactly, including whitespace, indentation and line breaks, with no escaping added. "
                           "Read the file again with read_file and copy the text as it is now."};
    }
    if (p_.expected && found != static_cast<size_t>(*p_.expected)) {
      return ToolError{ErrorType::occurrence_count_mismatch,
                       "Failed to edit " + rel + ": expected " + std::to_string(*p_.expected) + " occurrence" +
                           (*p_.expected == 1 ? "" : "s") + " of old_string but found " + std::to_string(found) +
                           ", no changes were made."};
    }
    if (!p_.expected && !p_.allowMultiple && found > 1) {
      return ToolError{ErrorType::occurrence_count_mismatch,
                       "Failed to edit " + rel + ": old_string matches " + std::to_string(found) +
                           " places, no changes were made. Include more surrounding lines in old_string so it "
                           "matches exactly one place, or set allow_multiple to true to replace all " +
                           std::to_string(found) + "."};
    }
    return std::nullopt;
  }

  EditParams p_;
};

class ReplaceTool final : public Tool {
 public:
  explicit ReplaceTool(ToolContext context)
      : Tool(ToolInfo{
            .name = "replace",
            .displayName = "Edit",
            .description =
                "Replaces text in a file. old_string must be the exact literal text from the file (whitespace "
                "and indentation included) and, unless allow_multiple is true, must match exactly one place: "
                "include a few lines of context around the change. Read the file first to copy the text "
                "exactly. An empty old_string creates a new file containing new_string. The file keeps its "
                "line endings (LF or CRLF), byte order mark and final newline. The person may review the "
                "change as a diff before it is written. new_string must be the complete new text: placeholders "
                "such as \"// ... existing code ...\" are refused.",
            .kind = Kind::edit,
            .parametersSchema = kSchema}),
        context_(std::move(context)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    EditParams p;
    std::string path = r.str("file_path");
    p.instruction = r.str("instruction");
    std::string oldString = r.str("old_string");
    std::string newString = r.str("new_string");
    auto allowMultiple = r.optBool("allow_multiple");
    p.expected = r.optInt64("expected_replacements");
    if (!r.ok()) return invalidParams(r.error().message);
    if (p.expected && *p.expected < 1) {
      return invalidParams("params.expected_replacements: must be at least 1");
    }
    if (p.expected && *p.expected > 1 && allowMultiple && !*allowMultiple) {
      return invalidParams("params: allow_multiple is false but expected_replacements asks for " +
                           std::to_string(*p.expected) + " replacements");
    }
    p.allowMultiple = allowMultiple.value_or(false);
    p.oldString = normalize(oldString);
    // A new file is written as given; an edit is spliced into normalized text.
    p.newString = oldString.empty() ? std::move(newString) : normalize(newString);
    if (auto line = newOmissionPlaceholder(p.newString, p.oldString)) {
      return invalidParams(omissionMessage(*line));
    }
    if (!p.oldString.empty() && p.oldString == p.newString) {
      return invalidParams("No changes to apply: old_string and new_string are identical.");
    }
    auto resolved = editTargetOf(context_, path);
    if (resolved.error) return {nullptr, resolved.error};
    struct stat st {};
    if (::stat(resolved.path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      return buildFailure(ErrorType::is_directory, resolved.path + " is a directory; give the path of a file");
    }
    p.path = resolved.path;
    return {std::make_unique<ReplaceInvocation>(std::move(resolved), std::move(p)), std::nullopt};
  }

 private:
  ToolContext context_;
};

}  // namespace

std::unique_ptr<Tool> makeReplaceTool(const ToolContext& context) { return std::make_unique<ReplaceTool>(context); }

}  // namespace lathe::tools
