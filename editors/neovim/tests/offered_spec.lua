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

it('a plan is pinned over the top of the chat window and updated in place', function()
  ready()
  local chat = require('lathe.chat')
  chat.open()
  local pinned = require('lathe.pinned')
  fake_peer:update({ sessionUpdate = 'plan', entries = { { content = 'Find the bug', status = 'in_progress', priority = 'high' },
    { content = 'Fix it', status = 'pending', priority = 'high' } } }, client.session.id)
  ok(pinned.win and vim.api.nvim_win_is_valid(pinned.win), 'the pinned window')
  local cfg = vim.api.nvim_win_get_config(pinned.win)
  eq('win', cfg.relative)
  eq(chat.win, cfg.win)
  eq(false, cfg.focusable)
  eq({ ' Plan 0/2', ' [-] Find the bug', ' [ ] Fix it' }, vim.api.nvim_buf_get_lines(pinned.buf, 0, -1, false))
  local first = pinned.win
  for i = 1, 40 do fake_peer:update({ sessionUpdate = 'agent_message_chunk', content = { type = 'text', text = 'line ' .. i .. '\n' } }, client.session.id) end
  fake_peer:update({ sessionUpdate = 'plan', entries = { { content = 'Find the bug', status = 'completed', priority = 'high' },
    { content = 'Fix it', status = 'in_progress', priority = 'high' } } }, client.session.id)
  eq(first, pinned.win, 'updated in place')
  eq({ ' Plan 1/2', ' [x] Find the bug', ' [-] Fix it' }, vim.api.nvim_buf_get_lines(pinned.buf, 0, -1, false))
  ok(not table.concat(chat.lines(), '\n'):find('Find the bug', 1, true), 'not repeated in the log')
  -- The newest line stays in view, below the pinned plan.
  local last = vim.api.nvim_buf_line_count(chat.buf)
  local bottom = vim.api.nvim_win_call(chat.win, function() return vim.fn.line('w$') end)
  eq(last, bottom, 'the last line is on screen')
  ok(vim.api.nvim_win_get_height(chat.win) > #vim.api.nvim_buf_get_lines(pinned.buf, 0, -1, false), 'the plan leaves room for the answer')
  chat.close()
  eq(nil, pinned.win, 'closed with the chat')
end)
