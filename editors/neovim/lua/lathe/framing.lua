-- Newline-delimited JSON-RPC framing (ACP v1): one message per line. Pure: no
-- Neovim API beyond vim.json, so it runs in unit tests and luv callbacks alike.
local M = {}

-- A splitter keeps the partial line between reads; chunks may split or merge lines.
function M.splitter()
  local pending = ''
  return function(chunk)
    pending = pending .. chunk
    local lines = {}
    while true do
      local nl = pending:find('\n', 1, true)
      if not nl then break end
      local line = pending:sub(1, nl - 1):gsub('\r$', '')
      pending = pending:sub(nl + 1)
      if line:find('%S') then lines[#lines + 1] = line end
    end
    return lines
  end
end

-- JSON null becomes nil, so callers test fields with plain `if`.
function M.decode(line)
  return pcall(vim.json.decode, line, { luanil = { object = true, array = true } })
end

-- vim.json never emits raw newlines, so one encode is one frame.
function M.encode(msg)
  msg.jsonrpc = '2.0'
  return vim.json.encode(msg) .. '\n'
end

return M
