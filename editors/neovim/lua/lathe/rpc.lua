-- A JSON-RPC 2.0 peer over a child process's stdio (vim.loop pipes). Requests go
-- both ways; every callback into the rest of the plugin runs on the main loop.
-- Lathe may withdraw a request it sent ($/cancel_request): its handler hears
-- it (request.on_cancel) and the request is answered -32800 if still open.
local framing = require('lathe.framing')
local uv = vim.loop

local Peer = {}
Peer.__index = Peer

-- handlers: on_request(method, params, reply, request), on_notification(method, params),
-- on_exit(code, signal), on_stderr(text). reply(result) or reply(nil, error);
-- request.on_cancel = fn is called if Lathe withdraws the request unanswered.
function Peer.new(handlers)
  return setmetatable({ handlers = handlers, next_id = 1, pending = {}, incoming = {}, closed = true }, Peer)
end

-- Lathe gave up on one of its requests: its handler is told, and the request
-- answered as the spec asks (-32800) unless it was answered already.
function Peer:_withdrawn(params)
  local id = params and params.requestId
  local open = id ~= nil and self.incoming[id]
  if not open then return end
  if open.request.on_cancel then pcall(open.request.on_cancel) end
  open.reply(nil, { code = -32800, message = 'cancelled by Lathe' })
end

local function close(h)
  if h and not h:is_closing() then h:close() end
end

function Peer:start(cmd, args, env, cwd)
  self.stdin, self.stdout, self.stderr = uv.new_pipe(false), uv.new_pipe(false), uv.new_pipe(false)
  local handle, pid = uv.spawn(cmd, {
    args = args, env = env, cwd = cwd, stdio = { self.stdin, self.stdout, self.stderr },
  }, function(code, signal)
    vim.schedule(function() self:_ended({ code = code, signal = signal }) end)
  end)
  if not handle then
    close(self.stdin); close(self.stdout); close(self.stderr)
    return nil, tostring(pid)
  end
  self.handle, self.pid, self.closed = handle, pid, false
  local split = framing.splitter()
  -- Schedule the raw chunk: vim.schedule keeps order, and decoding on the main
  -- loop keeps this callback free of API calls.
  self.stdout:read_start(function(_, data)
    vim.schedule(function()
      if not data then return self:_ended({ eof = true }) end
      for _, line in ipairs(split(data)) do self:_receive(line) end
    end)
  end)
  self.stderr:read_start(function(_, data)
    if data then vim.schedule(function() if self.handlers.on_stderr then self.handlers.on_stderr(data) end end) end
  end)
  return pid
end

function Peer:_write(msg)
  if self.closed then return false end
  self.stdin:write(framing.encode(msg))
  return true
end

-- Calls cb(err, result) once; err is a JSON-RPC error object.
function Peer:request(method, params, cb)
  local id = self.next_id
  self.next_id = id + 1
  self.pending[id] = cb or function() end
  if not self:_write({ id = id, method = method, params = params or vim.empty_dict() }) then
    self.pending[id] = nil
    if cb then cb({ code = -32603, message = 'Lathe is not running' }) end
  end
  return id
end

function Peer:notify(method, params)
  return self:_write({ method = method, params = params or vim.empty_dict() })
end

function Peer:_receive(line)
  local ok, msg = framing.decode(line)
  if not ok or type(msg) ~= 'table' then return end
  if msg.method and msg.id ~= nil then
    local id, answered = msg.id, false
    local request = {}
    local function reply(result, err)
      if answered then return end
      answered = true
      self.incoming[id] = nil
      if err then self:_write({ id = id, error = err })
      else self:_write({ id = id, result = result or vim.empty_dict() }) end
    end
    self.incoming[id] = { reply = reply, request = request }
    local ok2, e = pcall(self.handlers.on_request, msg.method, msg.params or {}, reply, request)
    if not ok2 then reply(nil, { code = -32603, message = tostring(e) }) end
  elseif msg.method == '$/cancel_request' then
    self:_withdrawn(msg.params)
  elseif msg.method then
    self.handlers.on_notification(msg.method, msg.params or {})
  elseif msg.id ~= nil and self.pending[msg.id] then
    local cb = self.pending[msg.id]
    self.pending[msg.id] = nil
    cb(msg.error, msg.result)
  end
end

-- The process is gone once it exited and its stdout ended, so the last
-- messages it wrote are read before pending requests fail. A grandchild
-- holding stdout open must not delay that forever, hence the short grace.
function Peer:_ended(what)
  local e = self.ending or {}
  self.ending = e
  if what.eof then e.eof = true else e.code, e.signal, e.exited = what.code, what.signal, true end
  if e.exited and e.eof then return self:_exited(e.code, e.signal) end
  if e.exited then
    vim.defer_fn(function() self:_exited(e.code, e.signal) end, 500)
  end
end

function Peer:_exited(code, signal)
  if self.closed then return end
  self.closed = true
  close(self.stdin); close(self.stdout); close(self.stderr); close(self.handle)
  local pending = self.pending
  self.pending = {}
  for _, cb in pairs(pending) do cb({ code = -32603, message = 'Lathe exited' }) end
  if self.handlers.on_exit then self.handlers.on_exit(code, signal) end
end

-- Closing stdin lets Lathe finish; the kill covers a stuck process.
function Peer:stop()
  if self.closed then return end
  self.stopping = true
  close(self.stdin)
  if self.handle and not self.handle:is_closing() then pcall(self.handle.kill, self.handle, 'sigterm') end
end

return Peer
