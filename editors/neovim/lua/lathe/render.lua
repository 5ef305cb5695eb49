-- Transcript blocks to Markdown lines for the chat buffer. Pure. Every block
-- ends with one blank line, so blocks can be replaced independently.
local diff = require('lathe.diff')
local M = {}

local function text_lines(text)
  local lines = vim.split(text or '', '\n', { plain = true })
  while #lines > 1 and lines[#lines] == '' do lines[#lines] = nil end
  return lines
end

-- A fence longer than any backtick run inside, so tool output stays verbatim.
local function fenced(lines, lang)
  local longest = 2
  for _, l in ipairs(lines) do
    for run in l:gmatch('`+') do longest = math.max(longest, #run) end
  end
  local fence = string.rep('`', longest + 1)
  local out = { fence .. (lang or '') }
  vim.list_extend(out, lines)
  out[#out + 1] = fence
  return out
end

-- Shell output as a terminal would leave it on screen: colours and other
-- escapes dropped, a carriage return overwriting its line.
function M.terminal_text(data)
  local s = (data or ''):gsub('\27%][^\7\27]*\7', ''):gsub('\27%][^\27]*\27\\', '')
    :gsub('\27%[[0-9;?]*[ -/]*[@-~]', ''):gsub('\27.', '')
  local out = {}
  for _, l in ipairs(text_lines(s)) do
    l = l:gsub('\r+$', '')
    out[#out + 1] = l:match('[^\r]*$')
  end
  if #out == 1 and out[1] == '' then return {} end
  return out
end

-- At most this many of a command's last lines are drawn (the model has all of it).
M.terminal_max_lines = 2000

-- The command Lathe runs, live: where, its output so far, how it ended.
local function terminal(t, status)
  local out = {}
  if t.cwd then out[#out + 1] = '_in `' .. t.cwd .. '`_' end
  local lines = M.terminal_text(t.output)
  if #lines > M.terminal_max_lines then
    out[#out + 1] = ('_… %d earlier lines not shown_'):format(#lines - M.terminal_max_lines)
    lines = vim.list_slice(lines, #lines - M.terminal_max_lines + 1, #lines)
  end
  if #lines > 0 then vim.list_extend(out, fenced(lines)) end
  if t.exited then
    out[#out + 1] = t.signal and ('_killed by %s_'):format(t.signal)
      or t.exit_code and ('_exit code %d_'):format(t.exit_code) or '_ended_'
  elseif status == 'pending' or status == 'in_progress' then
    out[#out + 1] = '_running…_'
  end
  return out
end

local function tool_content(c, b)
  if c.type == 'diff' then
    local out = { '`' .. (c.path or '') .. '`' .. (c.oldText == nil and ' (new file)' or '') }
    return vim.list_extend(out, fenced(diff.unified(c.oldText, c.newText), 'diff'))
  elseif c.type == 'terminal' then
    if b.terminal and b.terminal.id == c.terminalId then return terminal(b.terminal, b.status) end
    return { '_terminal ' .. tostring(c.terminalId) .. '_' }
  elseif c.type == 'content' and c.content then
    local text = require('lathe.transcript').content_text(c.content)
    if text == '' then return {} end
    -- A mode switch's words (exit_plan_mode: the plan itself) read as Markdown, quoted.
    if b.tool_kind == 'switch_mode' then
      return vim.tbl_map(function(l) return l == '' and '>' or ('> ' .. l) end, text_lines(text))
    end
    return fenced(text_lines(text))
  end
  return {}
end

-- A mode switch keeps what it asked about (the plan) above its outcome.
local function shown_content(b)
  if b.tool_kind ~= 'switch_mode' or not b.asked or b.asked == b.content then return b.content or {} end
  local list, seen = {}, {}
  local content_text = require('lathe.transcript').content_text
  for _, c in ipairs(b.asked) do
    list[#list + 1] = c
    if c.type == 'content' then seen[content_text(c.content)] = true end
  end
  for _, c in ipairs(b.content or {}) do
    if not (c.type == 'content' and seen[content_text(c.content)]) then list[#list + 1] = c end
  end
  return list
end

local renderers = {
  user = function(b)
    local out = { b.steered and '## You (added to the running turn)' or '## You', '' }
    vim.list_extend(out, text_lines(b.text))
    for _, a in ipairs(b.attachments or {}) do out[#out + 1] = '`@' .. a .. '`' end
    return out
  end,
  heading = function() return { '## Lathe' } end,
  agent = function(b) return text_lines(b.text) end,
  -- A heading line makes even a one-line thought a fold that can close.
  thought = function(b)
    local out = { '> _Thinking_' }
    for _, l in ipairs(text_lines(b.text)) do out[#out + 1] = '> ' .. l end
    return out
  end,
  tool = function(b)
    local out = { '### ' .. (b.title or 'Tool call'):gsub('\n', ' ') }
    -- The hooks' notes first, apart from the output; their copies among the content are left out.
    local told = {}
    for _, h in ipairs(b.hooks or {}) do
      told[h.text] = true
      out[#out + 1] = ('> **Hook %s** (%s) %s%s'):format(h.hook, h.event, h.decision,
        h.message ~= '' and (': ' .. h.message:gsub('\n', ' ')) or '')
    end
    -- A plan is pinned, not repeated here; a failed call shows its content (the error).
    if type(b.rawInput) == 'table' and type(b.rawInput.todos) == 'table' and b.status ~= 'failed' then
      out[#out + 1] = '_The plan is pinned at the end of the chat, above the prompt._'
    else
      for _, c in ipairs(shown_content(b)) do
        local text = c.type == 'content' and require('lathe.transcript').content_text(c.content) or nil
        if not (text and told[text]) then
          local lines = tool_content(c, b)
          -- Quoted items one after another stay paragraphs of their own.
          if b.tool_kind == 'switch_mode' and lines[1] and out[#out]:sub(1, 1) == '>' then out[#out + 1] = '>' end
          vim.list_extend(out, lines)
        end
      end
    end
    if b.awaiting then out[#out + 1] = '_' .. b.awaiting .. '_' end
    if b.child then vim.list_extend(out, M.child(b.child)) end
    return out
  end,
  changes = function(b)
    local out = { '### Changed files' }
    for _, f in ipairs(b.files) do
      out[#out + 1] = ('- `%s` +%d -%d%s'):format(f.rel, f.added, f.removed, f.decided and (' · ' .. f.decided) or '')
    end
    local keys = {}
    if b.keep_key then keys[#keys + 1] = b.keep_key .. ' keeps' end
    if b.undo_key then keys[#keys + 1] = b.undo_key .. ' undoes' end
    keys[#keys + 1] = ':LatheKeep / :LatheUndo'
    out[#out + 1] = ('_On a file: %s_'):format(table.concat(keys, ' · '))
    return out
  end,
  notice = function(b)
    local mark = (b.severity == 'warning' or b.severity == 'error') and '⚠ ' or ''
    return { '_' .. mark .. b.text:gsub('\n', ' ') .. '_' }
  end,
  question = function(b)
    local q = b.q
    local out = { '### Question: ' .. q.message:gsub('\n', ' ') }
    if q.url then out[#out + 1] = '`' .. q.url .. '`' end
    for _, f in ipairs(q.fields) do
      if f.description then out[#out + 1] = ('- **%s**: %s'):format(f.title, f.description:gsub('\n', ' ')) end
    end
    local settled = ({ accept = 'Answered', decline = 'You declined', cancel = 'You cancelled', withdrawn = 'Withdrawn by Lathe' })[q.state]
    out[#out + 1] = settled and ('_%s%s_'):format(settled, q.summary and (': ' .. q.summary) or '')
      or '_Waiting for your answer: the questions are asked one after another_'
    return out
  end,
  compaction = function(b)
    local title = ({ in_progress = 'Compacting the conversation…', completed = 'Conversation compacted',
      failed = 'Compaction failed', cancelled = 'Compaction cancelled' })[b.status] or ('Compaction: ' .. tostring(b.status))
    local out = { '### ' .. title }
    if b.error then out[#out + 1] = '_' .. b.error:gsub('\n', ' ') .. '_' end
    for _, l in ipairs(text_lines(b.summary)) do if l ~= '' then out[#out + 1] = '> ' .. l end end
    return out
  end,
}

-- How a sub-agent's state reads in the chat.
function M.child_state(c)
  if c.state == 'running' then return 'working' end
  if c.state == 'requires_action' then return 'waiting for you' end
  if c.state == 'unknown' then return 'no longer running' end
  if c.state == 'idle' then
    if c.error then return 'stopped: ' .. c.error end
    if c.stop_reason == 'cancelled' then return 'stopped' end
    if c.stop_reason and c.stop_reason ~= 'end_turn' then return ('stopped at a limit (%s)'):format(c.stop_reason) end
    return 'done'
  end
  return tostring(c.state)
end

-- A sub-agent's own transcript, quoted under the block of the call that started
-- it: its state, its task, then its blocks (a tool call with its status).
function M.child(c)
  local working = c.state == 'running' or c.state == 'requires_action'
  local head = ('↳ **%s** · %s'):format((c.title or 'Sub-agent'):gsub('\n', ' '), M.child_state(c))
  if working and c.can_stop then head = head .. ' · _:LatheStopAgent stops it_' end
  local out = { '', '> ' .. head }
  local blocks = c.transcript.blocks
  -- The whole task arrives as a message from the parent; until then, its first line.
  if c.task and not (blocks[1] and blocks[1].kind == 'user') then
    out[#out + 1] = '> _Task: ' .. c.task:gsub('\n', ' ') .. '_'
  end
  for _, b in ipairs(blocks) do
    local lines = M.block(b)
    lines[#lines] = nil -- the blank after each block
    if b.kind == 'tool' then lines[1] = '#' .. lines[1] .. ' · ' .. (b.status or 'pending'):gsub('_', ' ') end
    if b.kind == 'user' then lines[1] = '**Task**' end
    out[#out + 1] = '>'
    for _, l in ipairs(lines) do out[#out + 1] = l == '' and '>' or ('> ' .. l) end
  end
  return out
end

local plan_marks = { completed = '[x]', in_progress = '[-]', pending = '[ ]' }

-- The plan pinned at the end of the chat: a heading with the progress, a line
-- per step, a blank line; nothing without entries.
function M.plan(entries)
  if not entries or #entries == 0 then return {} end
  local done, out = 0, {}
  for _, e in ipairs(entries) do
    if e.status == 'completed' then done = done + 1 end
    out[#out + 1] = ('- %s %s'):format(plan_marks[e.status] or '[ ]', (e.content or ''):gsub('\n', ' '))
  end
  table.insert(out, 1, ('### Plan %d/%d'):format(done, #entries))
  out[#out + 1] = ''
  return out
end

-- Prompts waiting behind the running turn, pinned after the plan until each starts.
function M.queued(entries)
  local out = {}
  for _, e in ipairs(entries or {}) do
    vim.list_extend(out, { '## You · queued', '' })
    vim.list_extend(out, text_lines(e.text))
    for _, a in ipairs(e.attachments or {}) do out[#out + 1] = '`@' .. a .. '`' end
    vim.list_extend(out, { '_Sent when the running turn ends; a cancel drops it_', '' })
  end
  return out
end

function M.block(b)
  local lines = (renderers[b.kind] or function() return {} end)(b)
  lines[#lines + 1] = ''
  return lines
end

-- Status shown beside a tool call's heading.
function M.status(b)
  if b.kind ~= 'tool' then return nil end
  return b.status or 'pending'
end

function M.usage(u)
  if not u or not u.used then return nil end
  local function short(n)
    if n >= 1e6 then return ('%.1fM'):format(n / 1e6) end
    if n >= 1e3 then return ('%.1fk'):format(n / 1e3) end
    return tostring(n)
  end
  local text = ('%s/%s tokens'):format(short(u.used), short(u.size or 0))
  if type(u.cost) == 'table' and type(u.cost.amount) == 'number' then
    local figure = ('%.' .. (u.cost.amount < 1 and 4 or 2) .. 'f'):format(u.cost.amount)
    text = text .. ' · ' .. (u.cost.currency == 'USD' and ('$' .. figure) or (figure .. ' ' .. tostring(u.cost.currency)))
  end
  return text
end

return M
