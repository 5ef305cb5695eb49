-- Features the current Lathe does not offer yet (commands, model choice, past
-- sessions, plans), driven by a scripted stand-in for the JSON-RPC peer so the
-- plugin's handling is tested now and shows up once Lathe sends them.
local script = {} -- method -> function(params, peer) returning result, error
local Fake = {}
Fake.__index = Fake
function Fake.new(handlers) return setmetatable({ handlers = handlers, closed = true, pid = 4242 }, Fake) end
function Fake:start() self.closed = false; _G.fake_peer = self; return self.pid end
function Fake:request(method, params, cb)
  local handler = script[method] or function() return nil, { code = -32601, message = 'no ' .. method } end
  local result, err = handler(params, self)
  vim.schedule(function() cb(err, result) end)
end
function Fake:notify(method, params) self.notified = { method = method, params = params } end
function Fake:stop() self.closed = true end
function Fake:update(u, sid) self.handlers.on_notification('session/update', { sessionId = sid or 'S1', update = u }) end
package.loaded['lathe.rpc'] = Fake

local lathe = require('lathe')
local client = require('lathe.client')
lathe.setup({ cmd = 'unused' })

local model_option = {
  id = 'model', name = 'Model', category = 'model', type = 'select', currentValue = 'flash',
  options = { { value = 'flash', name = 'Gemini Flash' }, { group = 'pro', name = 'Pro', options = { { value = 'pro', name = 'Gemini Pro' } } } },
}
script['initialize'] = function()
  return { protocolVersion = 1, agentCapabilities = { loadSession = true, sessionCapabilities = { list = {} } } }
end
script['session/new'] = function() return { sessionId = 'S1', configOptions = { model_option } } end
script['session/set_config_option'] = function(p)
  local o = vim.deepcopy(model_option)
  o.currentValue = p.value
  return { configOptions = { o } }
end
-- S1 is the session open now: it is not offered again.
script['session/list'] = function()
  return { sessions = { { sessionId = 'S0', cwd = vim.fn.getcwd(), title = 'Earlier work' },
    { sessionId = 'S1', cwd = vim.fn.getcwd(), title = 'This one' } } }
end
script['session/load'] = function(p, peer)
  if p.sessionId == 'S9' then return nil, { code = -32602, message = 'session S9 is damaged' } end
  peer:update({ sessionUpdate = 'user_message_chunk', content = { type = 'text', text = 'what did we do?' } }, p.sessionId)
  peer:update({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'We renamed things.' } }, p.sessionId)
  return {}
end

local function ready()
  client.with_session(function() end)
  wait_for(function() return client.state == 'ready' end, 'the scripted session')
end

local function picking(pred, fn)
  local original, shown = vim.ui.select, nil
  vim.ui.select = function(items, opts, cb)
    shown = vim.tbl_map(opts.format_item, items)
    for _, i in ipairs(items) do if pred(i) then return cb(i) end end
  end
  local good, err = pcall(fn)
  vim.ui.select = original
  assert(good, err)
  return shown
end

it('/ commands complete from available_commands_update', function()
  ready()
  eq({}, require('lathe.complete').items('/', true))
  fake_peer:update({ sessionUpdate = 'available_commands_update', availableCommands = {
    { name = 'review', description = 'Review the diff' }, { name = 'init', description = 'Write GEMINI.md', input = { hint = 'notes' } } } })
  local items = require('lathe.complete').items('/re', true)
  eq(1, #items)
  eq('/review ', items[1].word)
  eq('Review the diff', items[1].menu)
  eq(2, #require('lathe.complete').items('/', true))
  eq({}, require('lathe.complete').items('/', false), 'only at the start of the prompt')
  ok(LathePromptStatus():find('/ commands', 1, true), 'the prompt status mentions commands')
end)

it(':LatheModel offers and sets the model config option', function()
  ready()
  ok(lathe.status_text():find('flash', 1, true), lathe.status_text())
  local shown = picking(function(v) return v.value == 'pro' end, function()
    vim.cmd('LatheModel')
    wait_for(function() return client.model_option().currentValue == 'pro' end, 'the model change')
  end)
  eq({ 'Gemini Flash', 'Gemini Pro' }, shown)
  eq({ 'flash', 'pro' }, vim.fn.getcompletion('LatheModel ', 'cmdline'))
  ok(lathe.status_text():find('pro', 1, true), lathe.status_text())
end)

it(':LatheSessions reopens a past session and shows its history', function()
  ready()
  local shown = picking(function() return true end, function()
    vim.cmd('LatheSessions')
    wait_for(function() return require('lathe.chat').lines()[3] == 'what did we do?' end, 'the replayed history')
  end)
  eq({ 'Earlier work' }, shown)
  local text = table.concat(require('lathe.chat').lines(), '\n')
  ok(text:find('We renamed things.', 1, true), text)
  eq('S0', client.session.id)
end)

it('a session that cannot be reopened says why in the chat, which stays as it was', function()
  ready()
  local list = script['session/list']
  script['session/list'] = function()
    return { sessions = { { sessionId = 'S9', cwd = vim.fn.getcwd(), title = 'Broken one' } } }
  end
  local open = client.session.id
  picking(function() return true end, function()
    vim.cmd('LatheSessions')
    wait_for(function() return table.concat(require('lathe.chat').lines(), '\n'):find('Could not reopen', 1, true) end, 'the error in the chat')
  end)
  script['session/list'] = list
  local text = table.concat(require('lathe.chat').lines(), '\n')
  ok(text:find('We renamed things.', 1, true), 'the open conversation is still shown:\n' .. text)
  ok(text:find('Could not reopen the session Broken one: session S9 is damaged', 1, true), text)
  eq(open, client.session.id)
  eq('ready', client.state)
end)

it(':LatheDeleteSession says so when Lathe does not offer session/delete, and asks nothing', function()
  ready()
  local notes, notify, select = {}, vim.notify, vim.ui.select
  vim.notify = function(msg) notes[#notes + 1] = msg end
  local asked = false
  vim.ui.select = function() asked = true end
  vim.cmd('LatheDeleteSession')
  vim.notify, vim.ui.select = notify, select
  eq(false, client.can_delete())
  eq(false, asked, 'no picker')
  ok(notes[1] and notes[1]:find('deleting sessions is not supported', 1, true), vim.inspect(notes))
end)

it('the plan is pinned at the end of the chat, above the prompt, and updated in place', function()
  ready()
  local chat = require('lathe.chat')
  chat.open()
  local sid = client.session.id
  local function say(text) fake_peer:update({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = text } }, sid) end
  local function plan(a, b)
    fake_peer:update({ sessionUpdate = 'plan', entries = { { content = 'Find the bug', status = a, priority = 'high' },
      { content = 'Fix it', status = b, priority = 'high' } } }, sid)
  end
  -- The chat's lines, less the buffer's own last empty line.
  local function shown() local l = chat.lines(); l[#l] = nil; return l end
  say('Looking.\n')
  plan('in_progress', 'pending')
  local lines = shown()
  eq({ '### Plan 0/2', '- [-] Find the bug', '- [ ] Fix it', '' }, vim.list_slice(lines, #lines - 3, #lines))
  for i = 1, 40 do say('line ' .. i .. '\n') end
  fake_peer:update({ sessionUpdate = 'tool_call', toolCallId = 't1', title = 'Shell: make', kind = 'execute', status = 'pending' }, sid)
  plan('completed', 'in_progress')
  lines = shown()
  eq({ '### Plan 1/2', '- [x] Find the bug', '- [-] Fix it', '' }, vim.list_slice(lines, #lines - 3, #lines), 'still last, updated')
  local text = table.concat(lines, '\n')
  eq(1, select(2, text:gsub('### Plan', '')), 'shown once:\n' .. text)
  ok(text:find('line 40\n\n### Shell: make', 1, true), 'new blocks go in above it:\n' .. text)
  eq(#lines + 1, vim.api.nvim_win_call(chat.win, function() return vim.fn.line('w$') end), 'in view, just above the prompt')
  ok(vim.api.nvim_win_get_position(chat.prompt_win)[1] > vim.api.nvim_win_get_position(chat.win)[1], 'the prompt is under the chat')
  -- A redraw from scratch (the chat buffer is wiped and made again) keeps it pinned.
  chat.close()
  vim.api.nvim_buf_delete(chat.buf, { force = true })
  chat.open()
  lines = shown()
  eq('### Plan 1/2', lines[#lines - 3])
end)


it('a session/new refused as auth-required opens once the person logs in', function()
  client.stop()
  client.session, client.agent, client.state, client.waiting = nil, nil, 'stopped', {}
  local saved = { initialize = script['initialize'], new = script['session/new'] }
  local given, asked = nil, 0
  script['initialize'] = function()
    return { protocolVersion = 1, agentCapabilities = {},
      authMethods = { { id = 'in-terminal', name = 'Terminal', type = 'terminal' }, { id = 'key', name = 'A key' } } }
  end
  script['session/new'] = function()
    asked = asked + 1
    if not given then return nil, { code = -32000, message = 'Authentication required' } end
    return { sessionId = 'S1' }
  end
  script['authenticate'] = function(p) given = p; return {} end
  vim.api.nvim_feedkeys('1\rsecret-1\r', 't', false) -- the only login offered (terminal ones are not), then its key
  local good, err = pcall(ready)
  script['initialize'], script['session/new'], script['authenticate'] = saved.initialize, saved.new, nil
  assert(good, tostring(err) .. vim.inspect({ given = given, asked = asked, state = client.state }))
  eq({ methodId = 'key', _meta = { ['api-key'] = 'secret-1' } }, given)
  eq(2, asked, 'session/new again after the login')
  eq('S1', client.session.id)
end)
