-- The ACP connection to one Lathe process and its current session: start,
-- initialize, session/new, prompts, modes, config options, sessions, restarts.
-- It keeps only what Lathe announced; the UI asks it what is offered.
local Peer = require('lathe.rpc')
local config = require('lathe.config')

local M = {
  state = 'stopped', -- stopped | starting | ready | busy | failed
  agent = nil,       -- the initialize result
  session = nil,     -- { id, modes, config_options, commands, usage }
  waiting = {},      -- callbacks run once a session is ready
  turns = {},        -- prompts sent and not yet answered, oldest first: the first runs, the rest wait in Lathe's queue
  deaths = 0,
  stderr = {},
  version = '0.1.0',
}

-- Hooks the UI fills in (lathe.init): update, turn_end, notice, reset, changed, request,
-- initialized (after initialize), login (asks the person on auth-required),
-- elicitation_complete (a URL question's flow ended).
M.ui = setmetatable({}, { __index = function() return function() end end })

local function env_list(extra)
  if not extra or next(extra) == nil then return nil end -- inherit Neovim's environment
  local env = vim.fn.environ()
  for k, v in pairs(extra) do env[k] = tostring(v) end
  local list = {}
  for k, v in pairs(env) do list[#list + 1] = k .. '=' .. v end
  return list
end

local function flush(err)
  local waiting = M.waiting
  M.waiting = {}
  for _, cb in ipairs(waiting) do cb(err) end
end

local function set_state(s)
  M.state = s
  M.ui.changed()
end

function M.running() return M.peer ~= nil and not M.peer.closed end

function M.pid() return M.running() and M.peer.pid or nil end

local function on_notification(method, params)
  if method == 'elicitation/complete' then return M.ui.elicitation_complete(params) end
  if method ~= 'session/update' or not M.session then return end
  local u, s = params.update or {}, M.session
  if params.sessionId ~= s.id then
    -- A sub-agent's child session: shown nested under the call that started it.
    if s.children and s.children[params.sessionId] then M.ui.child_update(params.sessionId, u) end
    return
  end
  local kind = u.sessionUpdate
  if kind == 'subagent_update' and type(u.sessionId) == 'string' then
    s.children = s.children or {}
    s.children[u.sessionId] = true
  elseif kind == 'current_mode_update' then
    if s.modes then s.modes.currentModeId = u.currentModeId end
  elseif kind == 'available_commands_update' then
    s.commands = u.availableCommands or {}
  elseif kind == 'config_option_update' then
    s.config_options = u.configOptions or {}
  elseif kind == 'usage_update' then
    s.usage = u
  elseif kind == 'session_info_update' then
    s.title = u.title or s.title
  end
  M.ui.update(u)
  M.ui.changed()
end

-- ACP's "authentication required": for Lathe, no usable credentials.
local AUTH_REQUIRED = -32000

-- The logins the editor can give through `authenticate`; a "terminal" method runs
-- the agent's own login UI, which this client does not offer.
function M.login_methods()
  local methods = {}
  for _, m in ipairs((M.agent or {}).authMethods or {}) do
    if m.type ~= 'terminal' then methods[#methods + 1] = m end
  end
  return methods
end

function M.can_logout()
  local auth = ((M.agent or {}).agentCapabilities or {}).auth
  return type(auth) == 'table' and auth.logout ~= nil and auth.logout ~= vim.NIL
end

-- After auth-required: the person picks a login and gives what it needs (ui.login),
-- which goes to `authenticate`. done(nil) once Lathe took it; done(err) saying why not.
-- Any other error, or no login to offer, goes to done unchanged.
local function log_in(err, done)
  if not err or err.code ~= AUTH_REQUIRED or #M.login_methods() == 0 then return done(err) end
  M.ui.login(M.login_methods(), function(choice)
    if not choice then
      return done({ message = 'Lathe needs a login to reach the model. Login cancelled: nothing was sent and nothing changed.' })
    end
    if not M.running() then return done({ message = 'Lathe is not running' }) end
    M.peer:request('authenticate', require('lathe.login').params(choice), function(aerr)
      done(aerr and { message = 'Could not log in: ' .. (aerr.message or vim.inspect(aerr)) } or nil)
    end)
  end)
end

-- `logout` (when Lathe advertises it): its stored credentials go, the next prompt asks again.
function M.logout(cb)
  M.peer:request('logout', nil, function(err) cb(err) end)
end

local function adopt_session(id, res)
  M.session = {
    id = id, modes = res.modes, config_options = res.configOptions or {}, commands = {},
  }
end

-- Applies setup's approval_mode once per new session, when Lathe offers that mode.
local function apply_approval_mode(done)
  local want, modes = config.options.approval_mode, M.session.modes
  if not want or not modes or modes.currentModeId == want then return done() end
  M.set_mode(want, function() done() end)
end

local function new_session(done)
  M.peer:request('session/new', { cwd = vim.fn.getcwd(), mcpServers = {} }, function(err, res)
    if err then
      return log_in(err, function(lerr)
        if lerr then return done(lerr) end
        new_session(done) -- logged in: session/new again
      end)
    end
    adopt_session(res.sessionId, res)
    apply_approval_mode(function() done() end)
  end)
end

local function on_exit(code, signal)
  local stopping = M.peer and M.peer.stopping
  M.peer = nil
  if stopping then set_state('stopped'); return end
  M.deaths = M.deaths + 1
  local last = M.stderr[#M.stderr]
  local why = ('Lathe exited (code %d%s)%s'):format(code or -1, (signal or 0) ~= 0 and (', signal ' .. signal) or '',
    last and (': ' .. last) or '')
  if config.options.restart and M.deaths <= config.options.max_restarts then
    M.ui.notice(why .. '. Restarting it; the new session does not remember this conversation.')
    M.start()
  else
    set_state('failed')
    M.ui.notice(why .. '. Not restarting; run :Lathe to try again.')
    flush({ message = why })
  end
end

function M.start()
  if M.running() then return end
  M.stderr = {}
  set_state('starting')
  local opts = config.options
  local cmd = require('lathe.binary').find(opts) or opts.cmd
  M.peer = Peer.new({
    on_request = function(method, params, reply, request) M.ui.request(method, params, reply, request) end,
    on_notification = on_notification,
    on_exit = on_exit,
    on_stderr = function(text)
      for line in text:gmatch('[^\n]+') do
        M.stderr[#M.stderr + 1] = line
        if #M.stderr > 50 then table.remove(M.stderr, 1) end
      end
    end,
  })
  local pid, err = M.peer:start(cmd, opts.args, env_list(opts.env), vim.fn.getcwd())
  if not pid then
    M.peer = nil
    set_state('failed')
    local why = ('Cannot start Lathe (%s): %s'):format(opts.cmd, err)
    M.ui.notice(why)
    return flush({ message = why })
  end
  M.peer:request('initialize', {
    protocolVersion = 1,
    -- Questions as forms (or links to open), notices and compactions are shown
    -- in the chat; a sub-agent's child session nested under the call that started it.
    clientCapabilities = {
      fs = { readTextFile = true, writeTextFile = true }, terminal = false,
      elicitation = { form = vim.empty_dict(), url = vim.empty_dict() },
      session = { notices = vim.empty_dict(), compaction = vim.empty_dict() },
      subagents = vim.empty_dict(),
      -- Zed's terminal-output extension: a command's output streams on its call.
      _meta = { terminal_output = true },
    },
    clientInfo = { name = 'lathe.nvim', title = 'Lathe for Neovim', version = M.version },
  }, function(ierr, res)
    if ierr then return flush(ierr) end
    M.agent = res
    M.ui.initialized()
    M.open_session()
  end)
end

-- session/new in the running Lathe, then everyone waiting for a session is told.
function M.open_session()
  set_state('starting')
  new_session(function(serr)
    if serr then set_state('failed'); return flush(serr) end
    set_state('ready')
    flush(nil)
  end)
end

-- Runs cb(err) once a session is ready, starting Lathe when needed.
function M.with_session(cb)
  if M.session and M.running() and (M.state == 'ready' or M.state == 'busy') then return cb(nil) end
  M.waiting[#M.waiting + 1] = cb
  if M.state == 'starting' then return end
  -- A running Lathe without a session (one refused, a login cancelled) is asked again.
  if M.running() and M.agent then return M.open_session() end
  M.start()
end

-- The prompts of the open session sent and not yet answered, oldest first.
local function open_turns()
  local id = M.session and M.session.id
  return vim.tbl_filter(function(t) return t.session == id end, M.turns)
end

-- How many prompts of the open session are sent and not yet answered (one runs, the rest are queued).
function M.outstanding() return #open_turns() end

local function forget(turn)
  for i, t in ipairs(M.turns) do
    if t == turn then table.remove(M.turns, i) return end
  end
end

local function start_turn(turn)
  turn.started = true
  if turn.shown.start then turn.shown.start() end
end

-- Sends one prompt. Lathe queues it behind a turn that runs and answers it when
-- ITS turn ends, so a prompt sent meanwhile starts when the one before it is
-- answered. shown.start() runs when it starts (at once when nothing runs);
-- shown.drop(stop_reason, err) when it was answered without ever running (a
-- cancel drops the queue with the turn); ui.turn_end when a turn that ran ends.
function M.prompt(blocks, shown)
  shown = shown or {}
  M.with_session(function(err)
    if err then
      if shown.drop then shown.drop(nil, err) end
      return M.ui.turn_end(nil, err)
    end
    local turn = { shown = shown, session = M.session.id }
    M.turns[#M.turns + 1] = turn
    set_state('busy')
    if #open_turns() == 1 then start_turn(turn) end
    local function finish(stop_reason, perr)
      forget(turn)
      if #open_turns() == 0 and M.state == 'busy' then set_state('ready') end
      if not turn.started then
        if shown.drop then shown.drop(stop_reason, perr) end
        return
      end
      if not perr then M.deaths = 0 end
      M.ui.turn_end(stop_reason, perr)
      -- The next one queued starts now (not when Lathe is gone: it fails too).
      for _, t in ipairs(M.turns) do
        if t.session == turn.session then
          if not t.started and M.running() then start_turn(t) end
          break
        end
      end
    end
    local function send()
      M.peer:request('session/prompt', { sessionId = turn.session, prompt = blocks }, function(perr, res)
        if not perr then return finish(res and res.stopReason) end
        -- Auth-required: once logged in, the same prompt goes again.
        log_in(perr, function(lerr) if lerr then finish(nil, lerr) else send() end end)
      end)
    end
    send()
  end)
end

-- Whether Lathe takes text into a running turn (_session/steering, advertised
-- in the initialize response's _meta.steering.supported).
function M.can_steer()
  local meta = (M.agent or {})._meta
  return type(meta) == 'table' and type(meta.steering) == 'table' and meta.steering.supported == true
end

-- Adds text to the running turn; cb(err, outcome): "injected" (the model reads
-- it at its next request) or "promptRequired" (no turn runs: nothing was taken).
function M.steer(text, cb)
  M.peer:request('_session/steering', {
    sessionId = M.session.id, prompt = { { type = 'text', text = text } },
    _meta = { steering = { idleBehavior = 'promptRequired' } },
  }, function(err, res) cb(err, res and res.outcome) end)
end

function M.cancel()
  if M.state ~= 'busy' then return false end
  M.peer:notify('session/cancel', { sessionId = M.session.id })
  return true
end

-- Stops one sub-agent (its child session) while the turn goes on.
function M.stop_child(id)
  if not M.running() or not (M.session and M.session.children and M.session.children[id]) then return false end
  M.peer:notify('session/cancel', { sessionId = id })
  return true
end

-- What Lathe offers (nil when it does not).
function M.modes() return M.session and M.session.modes end

local function option_of(category)
  for _, o in ipairs(M.session and M.session.config_options or {}) do
    if o.category == category and o.type == 'select' then return o end
  end
end

function M.model_option() return option_of('model') end
-- The effort picker: the option of category thought_level, for models that think.
function M.effort_option() return option_of('thought_level') end

function M.can_reopen()
  local a = (M.agent or {}).agentCapabilities or {}
  return a.loadSession == true and a.sessionCapabilities ~= nil and a.sessionCapabilities.list ~= nil
end

function M.set_mode(id, cb)
  M.peer:request('session/set_mode', { sessionId = M.session.id, modeId = id }, function(err)
    if not err and M.session.modes then M.session.modes.currentModeId = id end
    M.ui.changed()
    if cb then cb(err) end
  end)
end

function M.set_config(id, value, cb)
  M.peer:request('session/set_config_option', { sessionId = M.session.id, configId = id, value = value },
    function(err, res)
      if not err and res and res.configOptions then M.session.config_options = res.configOptions end
      M.ui.changed()
      if cb then cb(err) end
    end)
end

function M.list_sessions(cb)
  M.peer:request('session/list', { cwd = vim.fn.getcwd() }, function(err, res)
    cb(err, res and res.sessions or {})
  end)
end

function M.can_delete()
  local a = (M.agent or {}).agentCapabilities or {}
  return M.can_reopen() and a.sessionCapabilities.delete ~= nil
end

-- session/delete: Lathe removes the session's record; session/list forgets it.
function M.delete_session(id, cb)
  M.peer:request('session/delete', { sessionId = id }, function(err) cb(err) end)
end

function M.can_close()
  local a = (M.agent or {}).agentCapabilities or {}
  return a.sessionCapabilities ~= nil and a.sessionCapabilities.close ~= nil
end

-- session/close of the open session (when Lathe supports it): a chat left behind
-- is freed in Lathe; it can still be reopened from :LatheSessions.
local function close_session(id, done)
  if not id or not M.can_close() then return done() end
  M.peer:request('session/close', { sessionId = id }, function(err) done(err) end)
end

-- session/load replays the history as session/update before it answers, so
-- the session is adopted (and the chat reset) before the request goes out.
-- ui.reset(snapshot) may return what to restore when the load fails; on
-- success the session left behind is closed.
function M.load_session(id, cb)
  local previous = M.session
  local restore = M.ui.reset(true)
  adopt_session(id, {})
  set_state('busy')
  M.loading = true
  M.peer:request('session/load', { sessionId = id, cwd = vim.fn.getcwd(), mcpServers = {} }, function(err, res)
    M.loading = false
    if err then
      M.session = previous
      if type(restore) == 'function' then restore() end
      set_state('ready')
      return cb(err)
    end
    M.session.modes = res and res.modes
    M.session.config_options = res and res.configOptions or {}
    set_state('ready')
    close_session(previous and previous.id ~= id and previous.id or nil, function() cb(nil) end)
  end)
end

-- A fresh session in the running Lathe (the chat starts over); the one open
-- before is closed first. cb(err, close_err).
function M.new_session(cb)
  M.with_session(function(err)
    if err then return cb(err) end
    local old = M.session
    M.session = nil -- its late updates are not this chat's
    close_session(old and old.id, function(cerr)
      new_session(function(nerr) cb(nerr, cerr) end)
    end)
  end)
end

function M.stop()
  if M.peer then M.peer:stop() end
end

return M
