// write_todos: the session's todo list, replaced whole by each call and shown
// to the person as an ACP plan. The list lives in the tool (one per session);
// calls may come from any worker thread, so it is guarded.
#include <mutex>

#include "protocol/base/enum_names.h"
#include "tools/todos/todo_tools.h"

namespace lathe::tools {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "todos": {
      "type": "array",
      "description": "The whole todo list, in order. It replaces the previous list; an empty array clears it.",
      "items": {
        "type": "object",
        "properties": {
          "description": {"type": "string", "description": "What the task is, in one line."},
          "status": {"type": "string", "enum": ["pending", "in_progress", "completed", "cancelled", "blocked"],
                     "description": "Where the task stands. At most one task may be in_progress."}
        },
        "required": ["description", "status"],
        "additionalProperties": false
      }
    }
  },
  "required": ["todos"],
  "additionalProperties": false
})";

constexpr const char* kDescription =
    "Keeps a todo list for the current piece of work, visible to the user as a plan. Use it for work with "
    "several steps: write the steps first, then call it again whenever a step starts, finishes, is dropped "
    "(cancelled) or cannot go on (blocked). Each call sends the complete list, which replaces the previous one. "
    "Mark a step in_progress when you start it; only one step may be in_progress at a time. Skip it for "
    "one-step requests.";

enum class TodoStatus { pending, in_progress, completed, cancelled, blocked };

// As the schema spells them.
constexpr EnumName<TodoStatus> kStatuses[] = {
    {TodoStatus::pending, "pending"},     {TodoStatus::in_progress, "in_progress"},
    {TodoStatus::completed, "completed"}, {TodoStatus::cancelled, "cancelled"},
    {TodoStatus::blocked, "blocked"},
};

struct Todo {
  std::string description;
  TodoStatus status = TodoStatus::pending;
};

struct TodoList {
  std::mutex mutex;
  std::vector<Todo> items;
};

// ACP plans know pending, in_progress and completed: a cancelled step is
// finished without being done, and a blocked one is still to do; each says so
// in its text, so nothing the model wrote is hidden.
acp::PlanEntry planEntry(const Todo& todo) {
  acp::PlanEntry entry;
  entry.content = todo.description;
  entry.priority = acp::PlanEntryPriority::medium;  // the model gives none
  const bool finished = todo.status == TodoStatus::completed || todo.status == TodoStatus::cancelled;
  entry.status = todo.status == TodoStatus::in_progress ? acp::PlanEntryStatus::in_progress
                 : finished                             ? acp::PlanEntryStatus::completed
                                                        : acp::PlanEntryStatus::pending;
  if (todo.status == TodoStatus::cancelled || todo.status == TodoStatus::blocked) {
    entry.content += std::string(" (") + nameOf(kStatuses, todo.status) + ")";
  }
  return entry;
}

std::string listText(const std::vector<Todo>& todos) {
  if (todos.empty()) return "The todo list is now empty.";
  std::string text = "The todo list now has " + std::to_string(todos.size()) + " item(s):";
  for (size_t i = 0; i < todos.size(); ++i) {
    text += "\n" + std::to_string(i + 1) + ". [" + nameOf(kStatuses, todos[i].status) + "] " + todos[i].description;
  }
  return text;
}

class WriteTodosInvocation final : public ToolInvocation {
 public:
  WriteTodosInvocation(std::shared_ptr<TodoList> list, std::function<void(const acp::PlanUpdate&)> showPlan,
                       std::vector<Todo> todos)
      : list_(std::move(list)), showPlan_(std::move(showPlan)), todos_(std::move(todos)) {}

  std::string description() const override {
    return todos_.empty() ? "Clear the todo list" : "Set " + std::to_string(todos_.size()) + " todo(s)";
  }

  ToolResult execute(const CancelToken&, const OutputSink&) override {
    acp::PlanUpdate plan;
    for (const auto& todo : todos_) plan.entries.push_back(planEntry(todo));
    {
      // Under the lock: two calls racing show the plan of the list that stays.
      std::lock_guard lock(list_->mutex);
      list_->items = todos_;
      if (showPlan_) showPlan_(plan);
    }
    std::string text = listText(todos_);
    return ToolResult::text(text, text);
  }

 private:
  std::shared_ptr<TodoList> list_;
  std::function<void(const acp::PlanUpdate&)> showPlan_;
  std::vector<Todo> todos_;
};

class WriteTodosTool final : public Tool {
 public:
  explicit WriteTodosTool(std::function<void(const acp::PlanUpdate&)> showPlan)
      : Tool(ToolInfo{.name = "write_todos",
                      .displayName = "Write Todos",
                      .description = kDescription,
                      .kind = Kind::think,
                      .parametersSchema = kSchema}),
        showPlan_(std::move(showPlan)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    std::vector<Todo> todos;
    int inProgress = 0;
    for (auto& item : r.array("todos")) {
      std::string description = item.str("description");
      std::string status = item.str("status");
      if (!r.ok()) break;
      auto known = valueOf(kStatuses, status);
      if (!known) {
        item.fail(item.path() + ".status", "unknown status \"" + status + "\"");
        break;
      }
      Todo todo{std::move(description), *known};
      if (todo.description.find_first_not_of(" \t\r\n") == std::string::npos) {
        item.fail(item.path() + ".description", "must not be empty");
        break;
      }
      inProgress += todo.status == TodoStatus::in_progress ? 1 : 0;
      todos.push_back(std::move(todo));
    }
    if (!r.ok()) return invalidParams(r.error().message);
    if (inProgress > 1) {
      return invalidParams("params.todos: only one task may be \"in_progress\" at a time; " +
                           std::to_string(inProgress) + " are. Mark the others pending or completed.");
    }
    return {std::make_unique<WriteTodosInvocation>(list_, showPlan_, std::move(todos)), std::nullopt};
  }

 private:
  std::function<void(const acp::PlanUpdate&)> showPlan_;
  std::shared_ptr<TodoList> list_ = std::make_shared<TodoList>();
};

}  // namespace

std::unique_ptr<Tool> makeWriteTodosTool(const ToolContext& context) {
  return std::make_unique<WriteTodosTool>(context.showPlan);
}

void registerTodoTools(ToolRegistry& registry, const ToolContext& context) {
  (void)registry.add(makeWriteTodosTool(context));
}

}  // namespace lathe::tools
