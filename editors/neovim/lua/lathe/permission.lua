-- session/request_permission: an edit with a diff is reviewed inline in the
-- file's buffer (lathe.review); anything else goes through vim.ui.select with
-- exactly the options Lathe sent. Every request is answered exactly once.
local config = require('lathe.config')
local M = { open = {} }

M.on_awaiting = function() end -- (tool_call_id, hint or nil, session id), set by lathe.init

local function first_of(options, kinds)
  for _, kind in ipairs(kinds) do
    for _, o in ipairs(options) do
      if o.kind == kind then return o end
    end
  end
end

function M.resolve(p, option_id)
  if p.done then return end
  p.done = true
  for i, q in ipairs(M.open) do
    if q == p then table.remove(M.open, i) break end
  end
  require('lathe.review').clear(p)
  M.on_awaiting(p.tool_call_id, nil, p.session_id)
  if option_id then
    p.reply({ outcome = { outcome = 'selected', optionId = option_id } })
  else
    p.reply({ outcome = { outcome = 'cancelled' } })
  end
end

function M.accept(p)
  local o = first_of(p.options, { 'allow_once', 'allow_always' })
  M.resolve(p, o and o.optionId)
end

function M.reject(p)
  local o = first_of(p.options, { 'reject_once', 'reject_always' })
  M.resolve(p, o and o.optionId)
end

-- All of Lathe's options; dismissing the menu rejects.
function M.choose(p)
  vim.ui.select(p.options, {
    prompt = 'Lathe: ' .. p.title,
    kind = 'lathe_permission',
    format_item = function(o) return o.name or o.optionId end,
  }, function(choice)
    if p.done then return end
    if choice then M.resolve(p, choice.optionId) else M.reject(p) end
  end)
end

local function diff_of(tool_call)
  for _, c in ipairs(tool_call.content or {}) do
    if c.type == 'diff' and c.path then return c end
  end
end

function M.ask(params, reply)
  local tc = params.toolCall or {}
  local p = {
    tool_call_id = tc.toolCallId, title = tc.title or 'Allow this tool call?',
    options = params.options or {}, reply = reply, session_id = params.sessionId,
  }
  M.open[#M.open + 1] = p
  local d = diff_of(tc)
  if d and config.options.review.inline and require('lathe.review').show(p, d) then
    M.on_awaiting(p.tool_call_id, require('lathe.review').hint(), p.session_id)
  else
    M.on_awaiting(p.tool_call_id, 'Waiting for your answer', p.session_id)
    M.choose(p)
  end
end

-- A stopped sub-agent's open questions are answered "cancelled" (ACP requires it).
function M.cancel_session(id)
  for _, p in ipairs(vim.list_slice(M.open, 1, #M.open)) do
    if p.session_id == id then M.resolve(p, nil) end
  end
end

-- The open request for this buffer's review, else the oldest one.
function M.current(buf)
  for _, p in ipairs(M.open) do
    if p.buf == buf then return p end
  end
  return M.open[1]
end

-- A cancelled turn answers every open question "cancelled" (ACP requires it).
function M.cancel_all()
  for _, p in ipairs(vim.list_slice(M.open, 1, #M.open)) do M.resolve(p, nil) end
end

return M
