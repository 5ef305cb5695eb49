-- setup's follow: a live tool call's file opens at its line in the person's
-- window (never the chat's, never a new split); the cursor stays where it is.
-- Only files that exist: a folder (list_directory, glob) or a file not yet
-- written is not opened, so no empty buffer appears in :ls.
local client = require('lathe.client')
local config = require('lathe.config')
local fs = require('lathe.fs')
local uv = vim.loop

return function(u)
  if not config.options.follow or client.loading then return end
  if u.sessionUpdate ~= 'tool_call' and u.sessionUpdate ~= 'tool_call_update' then return end
  local at = (u.locations or {})[1]
  if not at or type(at.path) ~= 'string' then return end
  local b = fs.find_buf(at.path)
  if not b then
    local stat = uv.fs_stat(at.path)
    if not stat or stat.type ~= 'file' then return end
    b = vim.fn.bufadd(at.path)
    if not pcall(vim.fn.bufload, b) then return end
    vim.bo[b].buflisted = true
  end
  local w = require('lathe.review').reveal(b, true)
  if w and type(at.line) == 'number' then
    pcall(vim.api.nvim_win_set_cursor, w, { math.max(1, math.min(at.line, vim.api.nvim_buf_line_count(b))), 0 })
  end
end
