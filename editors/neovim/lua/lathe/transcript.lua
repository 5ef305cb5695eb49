-- The conversation as a list of blocks, built from ACP session/update
-- notifications. Pure: the chat module renders it; tests feed it updates.
local M = {}
local T = {}
T.__index = T

function M.new()
  return setmetatable({ blocks = {}, tools = {}, answering = false, queue = {} }, T)
end

-- A sub-agent's own transcript, nested in its parent's tool block: no headings.
local function nested()
  local t = M.new()
  t.nested = true
  return t
end

-- Text for one ACP content block; non-text content gets a short label.
function M.content_text(c)
  if type(c) ~= 'table' then return '' end
  if c.type == 'text' then return c.text or '' end
  if c.type == 'resource_link' then return ('[%s](%s)'):format(c.name or c.uri or '', c.uri or '') end
  if c.type == 'resource' and c.resource then return ('[%s]'):format(c.resource.uri or 'resource') end
  return ('[%s]'):format(c.type or 'content')
end

function T:add(block)
  self.blocks[#self.blocks + 1] = block
  return #self.blocks
end

-- Agent-side output opens with a "Lathe" heading once per turn.
function T:_answer(changed)
  if not self.answering and not self.nested then
    self.answering = true
    changed[#changed + 1] = self:add({ kind = 'heading' })
  end
end

function T:user(text, attachments)
  self.answering = false
  return { self:add({ kind = 'user', text = text, attachments = attachments or {} }) }
end

-- Text the person added to the running turn (_session/steering).
function T:steered(text)
  return { self:add({ kind = 'user', text = text, attachments = {}, steered = true }) }
end

-- A prompt sent while a turn runs waits in Lathe's queue: pinned at the end of
-- the chat as pending (not a block) until it starts. Returns its entry.
function T:queue_prompt(text, attachments)
  local entry = { text = text, attachments = attachments or {} }
  self.queue[#self.queue + 1] = entry
  return entry
end

local function take(list, entry)
  for i, e in ipairs(list) do
    if e == entry then table.remove(list, i) return true end
  end
  return false
end

-- A queued prompt started: it becomes the person's message. Lathe echoes it as
-- a user_message_chunk when it starts; that echo is not shown a second time.
function T:start_queued(entry)
  if not take(self.queue, entry) then return {} end
  self.echo = entry.text
  return self:user(entry.text, entry.attachments)
end

-- A queued prompt that never ran (a cancel drops the queue with the turn).
function T:drop_queued(entry)
  take(self.queue, entry)
  return {}
end

function T:notice(text)
  return { self:add({ kind = 'notice', text = text }) }
end

-- A question Lathe asks (lathe.question): one block, updated as it is answered.
function T:question(q)
  local idx = self.questions and self.questions[q.id]
  if not idx then
    self.questions = self.questions or {}
    idx = self:add({ kind = 'question', q = q })
    self.questions[q.id] = idx
  end
  return { idx }
end

-- Chunks extend the last block of their kind and message (messageId);
-- anything in between, or another message, starts a new one.
function T:_append(kind, content, changed, message_id)
  if kind == 'user' and self.echo ~= nil then
    local echo = self.echo
    self.echo = nil
    if M.content_text(content) == echo then return end
  end
  if kind ~= 'user' then self:_answer(changed) else self.answering = false end
  local last = self.blocks[#self.blocks]
  if last and last.kind == kind and (not message_id or not last.message_id or last.message_id == message_id) then
    last.text = last.text .. M.content_text(content)
    changed[#changed + 1] = #self.blocks
  else
    changed[#changed + 1] = self:add({ kind = kind, text = M.content_text(content), attachments = {}, message_id = message_id })
  end
end

-- A compaction (compaction_update, compaction_summary_chunk): one block by id.
function T:_compaction(u, changed)
  self.compactions = self.compactions or {}
  local idx = self.compactions[u.compactionId]
  if not idx then
    idx = self:add({ kind = 'compaction', status = 'in_progress', summary = '' })
    self.compactions[u.compactionId] = idx
  end
  local b = self.blocks[idx]
  if u.status then b.status = u.status end
  if u.error then b.error = u.error end
  if u.content then b.summary = b.summary .. M.content_text(u.content) end
  changed[#changed + 1] = idx
end

local tool_fields = { 'title', 'kind', 'status', 'content', 'locations', 'rawInput' }

-- What the person's hooks decided about a call: Lathe's _meta.lathe.hooks.
function M.hook_notes(meta)
  local hooks = type(meta) == 'table' and type(meta.lathe) == 'table' and meta.lathe.hooks
  if type(hooks) ~= 'table' then return nil end
  local out = {}
  for _, h in ipairs(hooks) do
    if type(h) == 'table' then
      out[#out + 1] = { hook = tostring(h.hook or ''), event = tostring(h.event or ''),
        decision = tostring(h.decision or ''), message = tostring(h.message or ''), text = tostring(h.text or '') }
    end
  end
  return out
end

function T:_tool(u, changed)
  local idx = self.tools[u.toolCallId]
  if not idx then
    self:_answer(changed)
    idx = self:add({ kind = 'tool', id = u.toolCallId, title = 'Tool call', status = 'pending', content = {} })
    self.tools[u.toolCallId] = idx
  end
  local b = self.blocks[idx]
  for _, f in ipairs(tool_fields) do
    if u[f] ~= nil then b[f == 'kind' and 'tool_kind' or f] = u[f] end
  end
  b.hooks = M.hook_notes(u._meta) or b.hooks
  M.terminal_meta(b, u._meta)
  -- What a mode switch asked about (exit_plan_mode: the plan) stays shown after the answer.
  if u.asked and u.content ~= nil and b.tool_kind == 'switch_mode' then b.asked = u.content end
  changed[#changed + 1] = idx
end

-- Zed's terminal-output extension on a shell call's updates: where it runs
-- (terminal_info), its output as it streams (terminal_output, appended) and
-- how it ended (terminal_exit), kept on the call's block as b.terminal.
function M.terminal_meta(b, meta)
  if type(meta) ~= 'table' then return end
  local info, out, exit = meta.terminal_info, meta.terminal_output, meta.terminal_exit
  if type(info) ~= 'table' and type(out) ~= 'table' and type(exit) ~= 'table' then return end
  local term = b.terminal or { output = '' }
  b.terminal = term
  for _, m in ipairs({ info, out, exit }) do
    if type(m) == 'table' and type(m.terminal_id) == 'string' then term.id = m.terminal_id end
  end
  if type(info) == 'table' and type(info.cwd) == 'string' then term.cwd = info.cwd end
  if type(out) == 'table' and type(out.data) == 'string' then term.output = term.output .. out.data end
  if type(exit) == 'table' then
    term.exited = true
    term.exit_code = type(exit.exit_code) == 'number' and exit.exit_code or nil
    term.signal = type(exit.signal) == 'string' and exit.signal or nil
  end
end

function T:tool(id) return self.blocks[self.tools[id] or 0], self.tools[id] end

-- The plan is not a block: the chat pins the latest one at its end.
function T:_plan(u)
  self.plan = u.entries or {}
end

local function given(v) return v ~= nil and v ~= vim.NIL end

-- subagent_update: a child session, nested in the tool block Lathe names in
-- _meta.lathe.toolCallId (else a block of its own), with its state.
function T:_subagent(u, changed)
  self.children = self.children or {}
  local meta = type(u._meta) == 'table' and type(u._meta.lathe) == 'table' and u._meta.lathe or {}
  local card = self.children[u.sessionId] or meta.toolCallId or ('subagent:' .. u.sessionId)
  self.children[u.sessionId] = card
  if not self:tool(card) then self:_tool({ toolCallId = card, title = u.title or 'Sub-agent', kind = 'think' }, changed) end
  local b, idx = self:tool(card)
  b.child = b.child or { id = u.sessionId, title = 'Sub-agent', state = 'unknown', can_stop = false, transcript = nested() }
  local c = b.child
  if given(u.title) then c.title = u.title end
  if given(u.description) then c.task = u.description end
  if u.capabilities ~= nil then c.can_stop = type(u.capabilities) == 'table' and given(u.capabilities.cancel) end
  if type(u.state) == 'table' then
    c.state, c.stop_reason = u.state.state, given(u.state.stopReason) and u.state.stopReason or nil
    c.error = type(u.state.error) == 'table' and u.state.error.message or nil
  end
  changed[#changed + 1] = idx
end

-- The child session of that id and the index of the block it is nested in.
function T:child(id)
  local b, idx = self:tool((self.children or {})[id] or '')
  if b and b.child then return b.child, idx end
end

-- Applies an update of a child session to its nested transcript; the parent's
-- block index changes (nothing when the child is not this transcript's).
function T:child_apply(id, u)
  local c, idx = self:child(id)
  if not c then return {} end
  if u.sessionUpdate == 'session_message_chunk' then
    c.transcript:_append('user', u.content, {})
  else
    c.transcript:apply(u)
  end
  return { idx }
end

-- Marks a child's tool block as waiting for the person (or not).
function T:child_awaiting(id, tool_id, hint)
  local c, idx = self:child(id)
  if not c then return {} end
  c.transcript:awaiting(tool_id, hint)
  return { idx }
end

-- After a reload the children's states are history: none is running now.
function T:stale_children()
  local changed = {}
  for i, b in ipairs(self.blocks) do
    if b.child then
      if b.child.state ~= 'idle' then b.child.state = 'unknown' end
      b.child.can_stop = false
      changed[#changed + 1] = i
    end
  end
  return changed
end

-- The children that can be stopped now, in the order they were announced.
function T:stoppable()
  local out = {}
  for _, b in ipairs(self.blocks) do
    local c = b.child
    if c and c.can_stop and (c.state == 'running' or c.state == 'requires_action') then out[#out + 1] = c end
  end
  return out
end

-- Applies one session/update; returns the indices of blocks that changed.
function T:apply(u)
  local changed, kind = {}, u.sessionUpdate
  -- The turn's own output came first: no echo of its prompt is coming.
  if kind == 'agent_message_chunk' or kind == 'agent_thought_chunk' or kind == 'tool_call' then self.echo = nil end
  if kind == 'subagent_update' and type(u.sessionId) == 'string' then self:_subagent(u, changed)
  elseif kind == 'agent_message_chunk' then self:_append('agent', u.content, changed, u.messageId)
  elseif kind == 'agent_thought_chunk' then self:_append('thought', u.content, changed, u.messageId)
  elseif kind == 'user_message_chunk' then self:_append('user', u.content, changed, u.messageId)
  elseif kind == 'tool_call' or kind == 'tool_call_update' then self:_tool(u, changed)
  elseif kind == 'plan' then self:_plan(u)
  elseif kind == 'notice' then
    changed[#changed + 1] = self:add({ kind = 'notice', severity = u.severity,
      text = (u.title or '') .. (u.description and (': ' .. u.description) or '') })
  elseif kind == 'compaction_update' or kind == 'compaction_summary_chunk' then self:_compaction(u, changed)
  end
  return changed
end

-- Marks a tool block as waiting for the person (or not).
function T:awaiting(id, hint)
  local b, idx = self:tool(id)
  if not b then return {} end
  b.awaiting = hint
  return { idx }
end

-- The files Lathe changed that await the person's keep or undo (lathe.changes),
-- listed after the turn that changed them.
function T:changes(files, keep_key, undo_key)
  return { self:add({ kind = 'changes', files = files, keep_key = keep_key, undo_key = undo_key }) }
end

function T:finish(stop_reason)
  self.answering = false
  if stop_reason and stop_reason ~= 'end_turn' then
    return self:notice('Turn ended: ' .. stop_reason:gsub('_', ' '))
  end
  return {}
end

return M
