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
  client.session, client.agent, client.state, client.deaths, client.waiting = nil, nil, 'stopped', 0, {}
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
  client.prompt = function(blocks) sent = blocks; return real(blocks) end
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

-- A fake Gemini API on 127.0.0.1 (a libuv TCP server in this Neovim): each
-- request's path and x-goog-api-key header are recorded in `requests`, and every
-- request is answered with `text` (as SSE for :streamGenerateContent).
function H.fake_gemini(text)
  local uv = vim.loop
  local reply = vim.json.encode({ candidates = { { content = { role = 'model', parts = { { text = text } } },
    finishReason = 'STOP', index = 0 } } })
  local fake = { requests = {} }
  local server = uv.new_tcp()
  assert(server:bind('127.0.0.1', 0))
  local function answer(sock, head)
    local path = head:match('^%S+ (%S+)') or ''
    fake.requests[#fake.requests + 1] = { path = path, key = head:lower():match('\r\nx%-goog%-api%-key: *([^\r]*)') }
    local streamed = path:find(':streamGenerateContent', 1, true) ~= nil
    local body = streamed and ('data: ' .. reply .. '\r\n\r\n') or reply
    sock:write(('HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s')
      :format(streamed and 'text/event-stream' or 'application/json', #body, body), function() sock:close() end)
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
      answer(sock, head)
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

return H
