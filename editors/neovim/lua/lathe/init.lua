-- lathe.nvim: a thin Neovim front end for Lathe over ACP. Lathe decides; this
-- plugin renders the conversation and applies what Lathe asks of the editor.
local config = require('lathe.config')
local client = require('lathe.client')
local chat = require('lathe.chat')
local permission = require('lathe.permission')
local context = require('lathe.context')
local fs = require('lathe.fs')
local offered = require('lathe.offered')
local changes = require('lathe.changes')
local review_files = require('lathe.review_files')
local follow = require('lathe.follow')
local question = require('lathe.question')

local M = { pending_context = {} }

local function notify(msg, level)
  vim.notify('Lathe: ' .. msg, level or vim.log.levels.INFO)
end
M.notify = notify

local function show(changed) chat.apply(changed) end

local links = {
  LatheToolPending = 'Comment', LatheToolRunning = 'DiagnosticWarn', LatheToolFailed = 'DiagnosticError',
  LatheReviewAdd = 'DiffAdd', LatheReviewDelete = 'DiffDelete', LatheReviewHint = 'Comment',
  LatheApplied = 'DiffAdd',
}

-- Links to standard groups (default = true), so colour schemes decide the colours.
function M.highlights()
  for name, target in pairs(links) do vim.api.nvim_set_hl(0, name, { link = target, default = true }) end
  local ok = vim.fn.hlexists('DiagnosticOk') == 1 and 'DiagnosticOk' or 'String'
  vim.api.nvim_set_hl(0, 'LatheToolDone', { link = ok, default = true })
end

-- Requests Lathe makes of the editor.
local handlers = {
  ['fs/read_text_file'] = fs.read,
  ['fs/write_text_file'] = fs.write,
  -- The question carries the tool call as an update (its diff, say): show it, then ask.
  ['session/request_permission'] = function(params, reply)
    if params.toolCall and params.toolCall.toolCallId then
      local u = vim.tbl_extend('force', params.toolCall, { sessionUpdate = 'tool_call_update', asked = true })
      -- A sub-agent's question goes in its nested transcript.
      local child = chat.transcript:child(params.sessionId or '')
      show(child and chat.transcript:child_apply(params.sessionId, u) or chat.transcript:apply(u))
    end
    permission.ask(params, reply)
  end,
  ['elicitation/create'] = question.ask,
}


local function wire()
  client.ui = {
    update = function(u) show(chat.transcript:apply(u)); follow(u); changes.from_update(u, chat.transcript) end,
    child_update = function(id, u)
      show(chat.transcript:child_apply(id, u))
      local c = chat.transcript:child(id)
      if c then changes.from_update(u, c.transcript) end
    end,
    turn_end = function(stop_reason, err)
      permission.cancel_all()
      question.cancel_all()
      if err then show(chat.transcript:notice('Error: ' .. (err.message or vim.inspect(err)))) end
      if changes.touched then
        changes.touched = false
        review_files.show_pending()
      end
      show(chat.transcript:finish(stop_reason))
      M.last_stop = stop_reason or 'error'
      vim.cmd('redrawstatus!')
    end,
    notice = function(text) show(chat.transcript:notice(text)); notify(text, vim.log.levels.WARN) end,
    reset = function(snapshot) return chat.reset(snapshot) end,
    changed = function() pcall(vim.cmd, 'redrawstatus!') end,
    initialized = function() M.logout_command() end,
    login = function(methods, done) require('lathe.login').ask(methods, done) end,
    request = function(method, params, reply, request)
      local h = handlers[method]
      if not h then return reply(nil, { code = -32601, message = 'Method not found: ' .. method }) end
      h(params, reply, request)
    end,
    elicitation_complete = question.completed,
  }
  permission.on_awaiting = function(id, hint, session)
    if not id then return end
    if chat.transcript:child(session or '') then return show(chat.transcript:child_awaiting(session, id, hint)) end
    show(chat.transcript:awaiting(id, hint))
  end
  question.on_asked = function(q) show(chat.transcript:question(q)) end
  question.on_settled = function(q) show(chat.transcript:question(q)) end
end

function M.setup(opts)
  config.set(opts)
  M.highlights()
  vim.api.nvim_create_autocmd('ColorScheme', {
    group = vim.api.nvim_create_augroup('lathe_highlights', { clear = true }), callback = M.highlights,
  })
  vim.api.nvim_create_autocmd('VimLeavePre', {
    group = vim.api.nvim_create_augroup('lathe_stop', { clear = true }), callback = client.stop,
  })
  M.did_setup = true
end

local function ensure_setup() if not M.did_setup then M.setup({}) end end

-- The buffer the person was in before the chat (what #buffer names).
local function remember_origin()
  local b = vim.api.nvim_get_current_buf()
  if not vim.api.nvim_buf_get_name(b):match('^lathe://') then M.origin = b end
end

local function accepts(kind)
  local caps = client.agent and client.agent.agentCapabilities or {}
  return (caps.promptCapabilities or {})[kind] == true
end
local function embedded() return accepts('embeddedContext') end

-- An attached image as Lathe accepts it: image content, else a link to its file.
local function image_block(a)
  if accepts('image') then
    local block = { type = 'image', mimeType = a.image.mimeType, data = a.image.data }
    if a.image.path then block.uri = vim.uri_from_fname(a.image.path) end
    return block
  end
  if a.image.path then return { type = 'resource_link', uri = vim.uri_from_fname(a.image.path), name = a.label } end
end

-- The content blocks of a prompt (text, attached ranges and images,
-- #references) and the labels of what was attached.
local function prompt_blocks(text, attachments)
  local blocks, labels = { { type = 'text', text = text } }, {}
  for _, a in ipairs(attachments) do
    local label, block
    if a.image then
      label, block = a.label, image_block(a)
      if not block then notify('Lathe does not accept images; not sent: ' .. a.label, vim.log.levels.WARN) end
    else
      label, block = context.block(a.buf, a.l1, a.l2, embedded())
    end
    if block then
      labels[#labels + 1] = label
      blocks[#blocks + 1] = block
    end
  end
  for _, b in ipairs(context.references(text, M.origin, context.candidates())) do
    local label, block = context.block(b, nil, nil, embedded())
    labels[#labels + 1] = label
    blocks[#blocks + 1] = block
  end
  return blocks, labels
end

-- Sends text (with attached ranges and #references) as one turn. Sent while a
-- turn runs, it waits in Lathe's queue, pinned in the chat as queued until it
-- starts; a cancel drops it with the turn.
function M.send(text)
  ensure_setup()
  chat.open()
  local attachments = M.pending_context
  M.pending_context = {}
  client.with_session(function(err)
    if err then return client.ui.turn_end(nil, err) end -- the turn ends before it began
    local blocks, labels = prompt_blocks(text, attachments)
    local entry
    if client.outstanding() > 0 then
      entry = chat.transcript:queue_prompt(text, labels)
      show({})
    end
    client.prompt(blocks, {
      start = function() show(entry and chat.transcript:start_queued(entry) or chat.transcript:user(text, labels)) end,
      drop = function() if entry then show(chat.transcript:drop_queued(entry)) end end,
    })
  end)
end

function M.send_prompt_buffer()
  local text = M.take_prompt()
  if text then M.send(text) end
end

-- The prompt buffer's text, which it gives up (nil when empty).
function M.take_prompt()
  local lines = vim.api.nvim_buf_get_lines(chat.prompt, 0, -1, false)
  local text = vim.trim(table.concat(lines, '\n'))
  if text == '' then return nil end
  vim.api.nvim_buf_set_lines(chat.prompt, 0, -1, false, {})
  return text
end

-- :LatheSteer [text]: adds text (else the prompt buffer's) to the running turn,
-- when Lathe offers it (_session/steering): the model reads it at its next
-- request. With no turn running it is sent as a prompt of its own.
function M.steer(text)
  ensure_setup()
  text = text and vim.trim(text) or ''
  if text == '' then text = chat.prompt and vim.api.nvim_buf_is_valid(chat.prompt) and M.take_prompt() or '' end
  if text == '' then return notify('nothing to add: type it after :LatheSteer or in the prompt') end
  if client.outstanding() == 0 or not client.running() then return M.send(text) end
  if not client.can_steer() then
    notify('this Lathe does not take text into a running turn; sent as a queued prompt', vim.log.levels.WARN)
    return M.send(text)
  end
  client.steer(text, function(err, outcome)
    if err then
      notify('could not add it to the turn: ' .. (err.message or ''), vim.log.levels.ERROR)
      return show(chat.transcript:notice('Not added to the turn (' .. (err.message or 'error') .. '): ' .. text))
    end
    if outcome == 'injected' then return show(chat.transcript:steered(text)) end
    M.send(text) -- promptRequired: the turn ended meanwhile
  end)
end

-- :Lathe [prompt], with an optional range attached as context.
function M.command(opts)
  ensure_setup()
  remember_origin()
  if opts.range and opts.range > 0 and not vim.api.nvim_buf_get_name(0):match('^lathe://') then
    M.pending_context[#M.pending_context + 1] = { buf = vim.api.nvim_get_current_buf(), l1 = opts.line1, l2 = opts.line2 }
  end
  if opts.args and opts.args ~= '' then return M.send(opts.args) end
  chat.open()
  client.with_session(function() end)
  if #M.pending_context > 0 then
    local labels = {}
    for _, a in ipairs(M.pending_context) do
      labels[#labels + 1] = a.image and a.label or context.block(a.buf, a.l1, a.l2, false)
    end
    notify('attached ' .. table.concat(labels, ', ') .. ' to the next prompt')
  end
end

-- session/cancel first, so Lathe knows why the open questions are then answered "cancelled".
function M.cancel()
  local running = client.cancel()
  permission.cancel_all()
  question.cancel_all()
  if not running then notify('no turn is running') end
end

-- :LatheStopAgent [id]: stops one sub-agent while the turn goes on: the one
-- named, else the one whose call is under the cursor in the chat, else the only
-- one running. Its open questions are answered "cancelled".
function M.stop_agent(id)
  local target
  if id and id ~= '' then
    target = chat.transcript:child(id)
  else
    if chat.is_open() and vim.api.nvim_get_current_win() == chat.win then
      local b = chat.block_at(vim.api.nvim_win_get_cursor(chat.win)[1])
      target = b and b.child
    end
    local running = chat.transcript:stoppable()
    if not target and #running == 1 then target = running[1] end
    if not target and #running > 1 then
      return notify('several sub-agents are running: put the cursor on the one to stop in the chat')
    end
  end
  if not target or not target.can_stop or not (target.state == 'running' or target.state == 'requires_action') then
    return notify('no sub-agent to stop')
  end
  permission.cancel_session(target.id)
  client.stop_child(target.id)
end

-- What Lathe offers (modes, models, past sessions): lathe.offered.
M.mode, M.model, M.effort, M.sessions, M.delete_session, M.select_values = offered.mode, offered.model, offered.effort,
  offered.sessions, offered.delete_session, offered.select_values

-- :LatheNew: a fresh session; the chat starts over.
function M.new_session()
  ensure_setup()
  if client.state == 'busy' then client.cancel() end
  client.new_session(function(err, close_err)
    if err then return notify(err.message or 'cannot start a session', vim.log.levels.ERROR) end
    chat.reset()
    review_files.show_pending()
    if close_err then notify('the previous session did not close: ' .. (close_err.message or ''), vim.log.levels.WARN) end
  end)
end

-- :LatheImage [path]: attaches an image file, or without a path the clipboard's
-- image (through wl-paste or xclip), to the next prompt.
M.image = function(arg)
  ensure_setup()
  local a, err = require('lathe.image').attachment(arg)
  if not a then return notify(err, vim.log.levels.ERROR) end
  M.pending_context[#M.pending_context + 1] = a
  notify('attached ' .. a.label .. ' to the next prompt')
end

-- :LatheFollow [on|off]: setup's follow, switched while working.
function M.toggle_follow(arg)
  ensure_setup()
  local on = ({ on = true, off = false })[arg]
  if on == nil then on = not config.options.follow end
  config.options.follow = on
  notify('following the agent ' .. (on and 'on' or 'off'))
end

-- Keeping or undoing the files a turn changed: lathe.review_files.
M.keep, M.undo, M.decide_at_cursor = review_files.keep, review_files.undo, review_files.at_cursor

local function with_review(fn)
  local p = permission.current(vim.api.nvim_get_current_buf())
  if not p then return notify('nothing is waiting for your answer') end
  fn(p)
end
function M.accept() with_review(permission.accept) end
function M.reject() with_review(permission.reject) end
function M.options() with_review(permission.choose) end
function M.diff() with_review(function(p)
  if not p.buf then return notify('this request has no diff') end
  require('lathe.review').diff_split(p)
end) end

-- :LatheLogout exists only while the running Lathe advertises logout.
function M.logout_command()
  pcall(vim.api.nvim_del_user_command, 'LatheLogout')
  if not client.can_logout() then return end
  vim.api.nvim_create_user_command('LatheLogout', function() M.logout() end,
    { desc = 'Log out of Lathe: it forgets the key it keeps; the next prompt asks for a login' })
end

function M.logout()
  if not client.running() or not client.can_logout() then return notify('this Lathe does not offer a logout') end
  client.logout(function(err)
    if err then return notify('could not log out: ' .. (err.message or ''), vim.log.levels.ERROR) end
    show(chat.transcript:notice('Logged out of Lathe: the next prompt asks for a login.'))
    notify('logged out')
  end)
end

M.status_text = require('lathe.status').text

wire()
M.client, M.chat, M.permission, M.question = client, chat, permission, question
return M
