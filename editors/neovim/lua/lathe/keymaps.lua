-- Buffer-local keymaps that never shadow one the person already has: in their
-- files, a key mapped globally or in that buffer is left alone (the commands
-- still work). In Lathe's own chat and prompt buffers only a mapping local to
-- that buffer counts: a global one (Neovim 0.11's own insert-mode <C-S>, say)
-- is still there everywhere else, so the documented key works in the prompt.
local config = require('lathe.config')
local M = {}

local function taken(buf, mode, lhs)
  local own = vim.api.nvim_buf_get_name(buf):match('^lathe://') ~= nil
  local found = false
  vim.api.nvim_buf_call(buf, function()
    local m = vim.fn.maparg(lhs, mode, false, true)
    found = next(m) ~= nil and (not own or m.buffer == 1)
  end)
  return found
end

-- Sets config.keymaps[name] in buf; returns the lhs it set, or nil.
function M.set(buf, mode, name, rhs, desc)
  local lhs = config.options.keymaps[name]
  if not lhs or lhs == '' or taken(buf, mode, lhs) then return nil end
  vim.keymap.set(mode, lhs, rhs, { buffer = buf, silent = true, nowait = true, desc = 'Lathe: ' .. desc })
  return lhs
end

function M.del(buf, mode, lhs)
  if lhs and vim.api.nvim_buf_is_valid(buf) then pcall(vim.keymap.del, mode, lhs, { buffer = buf }) end
end

-- How a key reads to the person, with <LocalLeader> spelled out.
function M.label(name)
  local lhs = config.options.keymaps[name]
  if not lhs then return nil end
  local leader = vim.g.maplocalleader or '\\'
  return (lhs:gsub('<[Ll]ocal[Ll]eader>', leader))
end

return M
