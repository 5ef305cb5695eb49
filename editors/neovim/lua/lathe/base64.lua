-- Base64 (RFC 4648) for image attachments: Neovim's own vim.base64 where it
-- exists (0.10+), else a plain-arithmetic encoder (no `bit` library, which
-- only LuaJIT has). Pure.
local M = {}

local alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

-- The fallback, exposed so that tests run it on any version.
function M.encode_plain(data)
  local out = {}
  for i = 1, #data, 3 do
    local a, b, c = data:byte(i, i + 2)
    local n = a * 65536 + (b or 0) * 256 + (c or 0)
    local chars = {}
    for k = 1, 4 do
      local idx = math.floor(n / 64 ^ (4 - k)) % 64 + 1
      chars[k] = alphabet:sub(idx, idx)
    end
    if not b then chars[3] = '=' end
    if not c then chars[4] = '=' end
    out[#out + 1] = table.concat(chars)
  end
  return table.concat(out)
end

function M.encode(data)
  if vim.base64 then return vim.base64.encode(data) end
  return M.encode_plain(data)
end

return M
