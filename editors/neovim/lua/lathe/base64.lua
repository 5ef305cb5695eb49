-- Base64 (RFC 4648) for image attachments: vim.base64 exists only from
-- Neovim 0.10, so this one serves 0.7 too. Pure.
local bit = require('bit')
local M = {}

local alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

function M.encode(data)
  local out = {}
  for i = 1, #data, 3 do
    local a, b, c = data:byte(i, i + 2)
    local n = bit.bor(bit.lshift(a, 16), bit.lshift(b or 0, 8), c or 0)
    local chars = {}
    for k = 1, 4 do
      local idx = bit.band(bit.rshift(n, 6 * (4 - k)), 63) + 1
      chars[k] = alphabet:sub(idx, idx)
    end
    if not b then chars[3] = '=' end
    if not c then chars[4] = '=' end
    out[#out + 1] = table.concat(chars)
  end
  return table.concat(out)
end

return M
