// ask_user: Gemini CLI's tool for questions to the person (its name and
// parameters: up to four questions of type choice, text or yesno), asked
// through the editor as one form elicitation tied to the call. The model reads
// the answers as Gemini CLI gives them ({"answers": {"0": ...}}, by question
// index), or that the person declined or cancelled, in those words.
#include "tools/ask/ask_tools.h"

#include "protocol/base/enum_names.h"

namespace lathe::tools {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "questions": {
      "type": "array",
      "minItems": 1,
      "maxItems": 4,
      "description": "The questions, asked together in one form (one to four).",
      "items": {
        "type": "object",
        "properties": {
          "question": {"type": "string", "description": "The whole question, clear and specific, ending with a question mark."},
          "header": {"type": "string", "description": "A label of a word or two shown with the question, such as \"Database\" or \"Auth\"."},
          "type": {"type": "string", "enum": ["choice", "text", "yesno"], "default": "choice",
                   "description": "choice: the user picks from options (the default); text: a free answer; yesno: yes or no. With choice and yesno the user may also write an answer of their own."},
          "options": {
            "type": "array",
            "description": "For choice: two to four options.",
            "items": {
              "type": "object",
              "properties": {
                "label": {"type": "string", "description": "What the option says, in a few words."},
                "description": {"type": "string", "description": "What choosing it means, in a short sentence."}
              },
              "required": ["label", "description"]
            }
          },
          "multiSelect": {"type": "boolean", "description": "For choice: the user may pick several options."},
          "placeholder": {"type": "string", "description": "A hint for the user's own answer."}
        },
        "required": ["question", "header", "type"]
      }
    }
  },
  "required": ["questions"]
})";

constexpr const char* kDescription =
    "Asks the user one or more questions (at most four, in one form) and waits for the answers: to learn their "
    "preferences, settle what a request leaves open, or let them choose between approaches. Prefer choice "
    "questions with a few options, each with a short description. Never use it to ask permission to run a "
    "tool: the user is asked about those anyway.";

enum class QuestionType { choice, text, yesno };

constexpr EnumName<QuestionType> kTypes[] = {
    {QuestionType::choice, "choice"},
    {QuestionType::text, "text"},
    {QuestionType::yesno, "yesno"},
};

struct Option {
  std::string label;
  std::string description;
};

struct Question {
  std::string question;
  std::string header;
  QuestionType type = QuestionType::choice;
  std::vector<Option> options;
  bool multiSelect = false;
  std::string placeholder;
};

// Models write "\n" as two characters at times; Gemini CLI reads them as a newline.
std::string unescaped(std::string text) {
  for (const char* escaped : {"\\r\\n", "\\n"}) {
    for (size_t at = text.find(escaped); at != std::string::npos; at = text.find(escaped, at + 1)) {
      text.replace(at, std::string_view(escaped).size(), "\n");
    }
  }
  return text;
}

std::string fieldOf(size_t index) { return "q" + std::to_string(index + 1); }
std::string otherFieldOf(size_t index) { return fieldOf(index) + "_other"; }

void writeChoices(json::Writer& w, const char* key, const std::vector<Option>& options) {
  json::array(w, key, [&] {
    for (const auto& option : options) {
      json::object(w, [&] {
        json::put(w, "const", option.label);
        json::put(w, "title", option.description.empty() ? option.label : option.label + " — " + option.description);
      });
    }
  });
}

// One question as the form's fields: its answer, and for choice and yesno
// an answer of the person's own words.
void writeFields(json::Writer& w, size_t index, const Question& q) {
  const std::vector<Option> yesNo{{"Yes", ""}, {"No", ""}};
  json::object(w, fieldOf(index), [&] {
    const bool many = q.type == QuestionType::choice && q.multiSelect;
    json::put(w, "type", many ? "array" : "string");
    json::put(w, "title", q.header);
    std::string description = q.question;
    if (q.type == QuestionType::text && !q.placeholder.empty()) description += "\n(" + q.placeholder + ")";
    json::put(w, "description", description);
    if (many) {
      json::object(w, "items", [&] { writeChoices(w, "anyOf", q.options); });
    } else if (q.type != QuestionType::text) {
      writeChoices(w, "oneOf", q.type == QuestionType::yesno ? yesNo : q.options);
    }
  });
  if (q.type == QuestionType::text) return;
  json::object(w, otherFieldOf(index), [&] {
    json::put(w, "type", "string");
    json::put(w, "title", q.header + ": your own answer");
    json::put(w, "description", q.placeholder.empty() ? "Optional: an answer in your own words." : q.placeholder);
  });
}

std::string stringAt(const json::Value& content, const std::string& key) {
  const json::Value* v = json::find(content, key.c_str());
  return v && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : std::string();
}

// The person's answer to one question, as Gemini CLI words it (several
// choices joined by ", "); empty when they gave none.
std::string answerOf(const json::Value& content, size_t index) {
  std::string answer;
  if (const json::Value* v = json::find(content, fieldOf(index).c_str()); v && v->IsArray()) {
    for (const auto& item : v->GetArray()) {
      if (item.IsString()) answer += (answer.empty() ? "" : ", ") + std::string(item.GetString(), item.GetStringLength());
    }
  } else {
    answer = stringAt(content, fieldOf(index));
  }
  std::string own = stringAt(content, otherFieldOf(index));
  if (own.find_first_not_of(" \t\r\n") == std::string::npos) return answer;
  return answer.empty() ? own : answer + " — " + own;
}

class AskUserInvocation final : public ToolInvocation {
 public:
  AskUserInvocation(std::shared_ptr<Asker> asker, std::vector<Question> questions)
      : asker_(std::move(asker)), questions_(std::move(questions)) {}

  std::string description() const override {
    std::string text;
    for (const auto& q : questions_) text += (text.empty() ? "" : " / ") + q.question;
    return text;
  }

  void setCallId(const std::string& id) override { callId_ = id; }

  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    auto answer = asker_->ask(request(), cancel);
    if (!answer) {
      if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "the question was withdrawn: the turn was cancelled");
      return ToolResult::failure(ErrorType::execution_failed,
                                 "the question got no answer (" + answer.error().message + ")");
    }
    using Action = acp::ElicitationResponse::Action;
    if (answer->action == Action::decline) {
      return ToolResult::text("The user declined to answer these questions.", "You declined to answer.");
    }
    if (answer->action == Action::cancel) {
      return ToolResult::text("The user cancelled the questions without answering.", "You cancelled the questions.");
    }
    return answered(answer->content);
  }

 private:
  acp::ElicitationRequest request() const {
    acp::ElicitationRequest ask;
    ask.toolCallId = callId_;
    // Each field carries its question; the message only heads the form.
    ask.message = questions_.size() == 1 ? std::string("The agent has a question for you.")
                                         : "The agent has " + std::to_string(questions_.size()) + " questions for you.";
    ask.requestedSchema = json::Raw{json::buildObject([&](json::Writer& w) {
      json::put(w, "type", "object");
      json::object(w, "properties", [&] {
        for (size_t i = 0; i < questions_.size(); ++i) writeFields(w, i, questions_[i]);
      });
    })};
    return ask;
  }

  ToolResult answered(const json::Raw& content) const {
    auto doc = json::parse(content.empty() ? "{}" : content.text);
    const json::Value empty(rapidjson::kObjectType);
    const json::Value& values = doc && doc->IsObject() ? *doc : empty;
    std::string shown;
    std::string forModel = json::buildObject([&](json::Writer& w) {
      json::object(w, "answers", [&] {
        for (size_t i = 0; i < questions_.size(); ++i) {
          std::string answer = answerOf(values, i);
          if (answer.empty()) continue;
          json::put(w, std::to_string(i), answer);
          shown += "**" + questions_[i].header + "** → " + answer + "\n";
        }
      });
    });
    if (shown.empty()) shown = "You answered none of the questions.";
    return ToolResult::text(forModel, shown);
  }

  std::shared_ptr<Asker> asker_;
  std::vector<Question> questions_;
  std::string callId_;
};

std::optional<std::string> checkQuestion(const Question& q, size_t index) {
  const std::string where = "params.questions[" + std::to_string(index) + "]";
  if (q.question.find_first_not_of(" \t\r\n") == std::string::npos) return where + ".question: must not be empty";
  if (q.type == QuestionType::choice && (q.options.size() < 2 || q.options.size() > 4)) {
    return where + ".options: a choice question needs 2 to 4 options";
  }
  for (size_t j = 0; j < q.options.size(); ++j) {
    if (q.options[j].label.find_first_not_of(" \t\r\n") == std::string::npos) {
      return where + ".options[" + std::to_string(j) + "].label: must not be empty";
    }
  }
  return std::nullopt;
}

class AskUserTool final : public Tool {
 public:
  explicit AskUserTool(std::shared_ptr<Asker> asker)
      : Tool(ToolInfo{.name = "ask_user",
                      .displayName = "Ask User",
                      .description = kDescription,
                      .kind = Kind::communicate,
                      .parametersSchema = kSchema}),
        asker_(std::move(asker)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    std::vector<Question> questions;
    for (auto& item : r.array("questions")) {
      Question q;
      q.question = unescaped(item.str("question"));
      q.header = unescaped(item.str("header"));
      std::string type = item.optStr("type").value_or("choice");
      for (auto& option : item.optArray("options").value_or(std::vector<json::Reader>{})) {
        q.options.push_back({unescaped(option.str("label")), unescaped(option.optStr("description").value_or(""))});
      }
      q.multiSelect = item.optBool("multiSelect").value_or(false);
      q.placeholder = unescaped(item.optStr("placeholder").value_or(""));
      if (!r.ok()) break;
      auto known = valueOf(kTypes, type);
      if (!known) return invalidParams(item.path() + ".type: unknown type \"" + type + "\" (choice, text or yesno)");
      q.type = *known;
      if (auto problem = checkQuestion(q, questions.size())) return invalidParams(*problem);
      questions.push_back(std::move(q));
    }
    if (!r.ok()) return invalidParams(r.error().message);
    if (questions.empty()) return invalidParams("params.questions: at least one question is needed");
    return {std::make_unique<AskUserInvocation>(asker_, std::move(questions)), std::nullopt};
  }

 private:
  std::shared_ptr<Asker> asker_;
};

}  // namespace

std::unique_ptr<Tool> makeAskUserTool(std::shared_ptr<Asker> asker) { return std::make_unique<AskUserTool>(std::move(asker)); }

void registerAskTools(ToolRegistry& registry, const ToolContext& context) {
  if (!context.asker || !context.asker->offersForm()) return;
  (void)registry.add(makeAskUserTool(context.asker));
}

}  // namespace lathe::tools
