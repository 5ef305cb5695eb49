-- Shared test fixtures: a temporary workspace, Gemini CLI replay files
-- (--fake-responses) for the real Lathe binary, and a clean plugin per case.
local H = {}

H.bin = assert(os.getenv('LATHE_BIN'), 'LATHE_BIN is not set')

function H.write(path, text)
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  local f = assert(io.open(path, 'wb'))
  f:write(text)
  f:close()
end

function H.read(path)
  local f = io.open(path, 'rb')
  if not f then return nil end
  local t = f:read('*a')
  f:close()
  return t
end

-- A fresh workspace directory, made the current directory.
function H.workspace()
  local dir = vim.fn.resolve(vim.fn.tempname())
  vim.fn.mkdir(dir, 'p')
  vim.cmd('cd ' .. vim.fn.fnameescape(dir))
  return dir
end

-- One model reply: chunks is a list of part lists, streamed in order.
function H.reply(chunks, usage)
  local response = {}
  for i, parts in ipairs(chunks) do
    local cand = { content = { role = 'model', parts = parts }, index = 0 }
    if i == #chunks then cand.finishReason = 'STOP' end
    local chunk = { candidates = { cand } }
    if i == #chunks and usage then chunk.usageMetadata = usage end
    response[i] = chunk
  end
  return { method = 'generateContentStream', response = response }
end

function H.text(t) return { text = t } end
function H.thought(t) return { text = t, thought = true } end
function H.call(name, args) return { functionCall = { name = name, args = args } } end

function H.replay_file(dir, replies)
  local lines = {}
  for _, r in ipairs(replies) do lines[#lines + 1] = vim.json.encode(r) end
  local path = dir .. '/replay.jsonl'
  H.write(path, table.concat(lines, '\n') .. '\n')
  return path
end

-- Stops Lathe, closes the chat and forgets every buffer, so cases do not leak.
function H.reset()
  local client = require('lathe.client')
  client.stop()
  wait_for(function() return not client.running() end, 'Lathe to stop')
  client.session, client.agent, client.state, client.deaths, client.waiting, client.turns = nil, nil, 'stopped', 0, {}, {}
  local lathe = require('lathe')
  lathe.last_stop, lathe.pending_context = nil, {}
  require('lathe.permission').open = {}
  require('lathe.question').open = {}
  require('lathe.changes').reset()
  require('lathe.chat').reset()
  vim.cmd('silent! only')
  vim.cmd('enew!')
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if b ~= vim.api.nvim_get_current_buf() and not vim.api.nvim_buf_get_name(b):match('^lathe://') then
      pcall(vim.api.nvim_buf_delete, b, { force = true })
    end
  end
end

-- A workspace with a replay of `replies`, and the plugin set up to use it.
function H.start(replies, opts)
  H.reset()
  local dir = H.workspace()
  local replay = H.replay_file(dir, replies)
  require('lathe').setup(vim.tbl_deep_extend('force', {
    cmd = H.bin, args = { '--fake-responses', replay },
  }, opts or {}))
  return dir
end

function H.chat() return table.concat(require('lathe.chat').lines(), '\n') end

function H.wait_turn(what)
  wait_for(function() return require('lathe').last_stop ~= nil end, what or 'the turn to end')
  return require('lathe').last_stop
end

-- Runs a :Lathe command line and returns the content blocks of the prompt it sent.
function H.sent_by(command)
  local client = require('lathe.client')
  local sent
  local real = client.prompt
  client.prompt = function(blocks, shown) sent = blocks; return real(blocks, shown) end
  vim.cmd(command)
  local stop = H.wait_turn()
  client.prompt = real
  eq('end_turn', stop)
  return sent
end

function H.lines(b) return vim.api.nvim_buf_get_lines(b or 0, 0, -1, false) end

-- Presses keys as the person would (mappings apply), then lets callbacks run.
function H.press(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'mx', false)
end

-- A fake of Google's model APIs on 127.0.0.1 (a libuv TCP server in this Neovim):
-- the Gemini API and Vertex AI (any model path), an OAuth token endpoint
-- (/token), and the Code Assist API Log in with Google reaches
-- (/v1internal:loadCodeAssist, its model calls answered in {"response": ...}).
-- Each request's path, x-goog-api-key and Authorization headers are recorded in
-- `requests`, and model calls are answered with `text` (as SSE for :streamGenerateContent).
function H.fake_gemini(text)
  local uv = vim.loop
  local answer = { candidates = { { content = { role = 'model', parts = { { text = text } } },
    finishReason = 'STOP', index = 0 } } }
  local fake = { requests = {} }
  local tokens = 0
  local server = uv.new_tcp()
  assert(server:bind('127.0.0.1', 0))
  local function reply_for(path)
    if path:find('^/token') then
      tokens = tokens + 1
      return 'application/json', vim.json.encode({ access_token = 'access-' .. tokens, refresh_token = 'refresh-fake',
        expires_in = 3600, token_type = 'Bearer' })
    end
    if path:find(':loadCodeAssist', 1, true) then
      return 'application/json', vim.json.encode({ currentTier = { id = 'standard-tier' }, cloudaicompanionProject = 'fake-project' })
    end
    local body = vim.json.encode(path:find('^/v1internal') and { response = answer, traceId = 't' } or answer)
    if path:find(':streamGenerateContent', 1, true) then return 'text/event-stream', 'data: ' .. body .. '\r\n\r\n' end
    return 'application/json', body
  end
  local function answer_request(sock, head)
    local path = head:match('^%S+ (%S+)') or ''
    local lower = head:lower()
    fake.requests[#fake.requests + 1] = { path = path, key = lower:match('\r\nx%-goog%-api%-key: *([^\r]*)'),
      authorization = head:match('\r\n[Aa]uthorization: *([^\r]*)') }
    local kind, body = reply_for(path)
    sock:write(('HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s')
      :format(kind, #body, body), function() sock:close() end)
  end
  assert(server:listen(16, function()
    local sock = uv.new_tcp()
    server:accept(sock)
    local got = ''
    sock:read_start(function(err, chunk)
      if err or not chunk then return sock:close() end
      got = got .. chunk
      local head_end = got:find('\r\n\r\n', 1, true)
      if not head_end then return end
      local head = got:sub(1, head_end + 1)
      if #got < head_end + 3 + (tonumber(head:lower():match('content%-length: *(%d+)')) or 0) then return end
      sock:read_stop()
      answer_request(sock, head)
    end)
  end))
  fake.url = 'http://127.0.0.1:' .. server:getsockname().port
  -- The requests that carried a prompt to the model.
  function fake.prompts()
    return vim.tbl_filter(function(r) return r.path:find(':streamGenerateContent', 1, true) ~= nil end, fake.requests)
  end
  function fake.close() server:close() end
  return fake
end

-- A GET as a browser sends it (to Lathe's loopback login address); done(status line).
function H.http_get(url, done)
  local uv = vim.loop
  local host, port, path = url:match('^http://([^:/]+):(%d+)(/.*)$')
  local sock = uv.new_tcp()
  sock:connect(host, tonumber(port), function(err)
    if err then return vim.schedule(function() done(err) end) end
    local got = ''
    sock:read_start(function(_, chunk)
      if chunk then got = got .. chunk; return end
      sock:close()
      vim.schedule(function() done(got:match('^[^\r\n]*')) end)
    end)
    sock:write('GET ' .. path .. ' HTTP/1.1\r\nHost: ' .. host .. '\r\nConnection: close\r\n\r\n')
  end)
end

-- A query parameter of a URL, decoded.
function H.query(url, name)
  local value = url:match('[?&]' .. name .. '=([^&]*)')
  return value and (value:gsub('%+', ' '):gsub('%%(%x%x)', function(h) return string.char(tonumber(h, 16)) end)) or nil
end

return H
