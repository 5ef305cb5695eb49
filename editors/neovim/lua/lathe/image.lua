-- Images for a prompt: a file by path, or the clipboard's image through
-- wl-paste (Wayland) or xclip (X11), whichever is installed.
local base64 = require('lathe.base64')
local M = {}

local types = { png = 'image/png', jpg = 'image/jpeg', jpeg = 'image/jpeg', gif = 'image/gif', webp = 'image/webp' }

function M.mime(path) return types[(path:match('%.([%w]+)$') or ''):lower()] end

-- What cmd prints, bytes intact (vim.fn.system turns NULs into \1, which
-- corrupts a PNG), or nil when it fails or prints nothing.
local function output(cmd)
  local tmp = vim.fn.tempname()
  local line = table.concat(vim.tbl_map(vim.fn.shellescape, cmd), ' ') .. ' >' .. vim.fn.shellescape(tmp)
  vim.fn.system(line)
  local failed = vim.v.shell_error ~= 0
  local bytes = require('lathe.fs').read_disk(tmp)
  os.remove(tmp)
  if failed or not bytes or bytes == '' then return nil end
  return bytes
end

-- The clipboard's PNG bytes, or nil and why not. wl-paste is asked first; it
-- fails outside Wayland, and then xclip is asked.
local function clipboard()
  local tools = {
    { 'wl-paste', { 'wl-paste', '--no-newline', '--type', 'image/png' } },
    { 'xclip', { 'xclip', '-selection', 'clipboard', '-t', 'image/png', '-o' } },
  }
  local asked = {}
  for _, t in ipairs(tools) do
    if vim.fn.executable(t[1]) == 1 then
      local bytes = output(t[2])
      if bytes then return bytes end
      asked[#asked + 1] = t[1]
    end
  end
  if #asked > 0 then return nil, 'the clipboard holds no PNG image (' .. table.concat(asked, ', ') .. ')' end
  return nil, 'no clipboard tool for images: install wl-clipboard or xclip, or give a path'
end

-- An attachment for lathe.init: { label, image = { mimeType, data, path } }, or nil and why not.
function M.attachment(arg)
  if not arg or arg == '' then
    local bytes, err = clipboard()
    if not bytes then return nil, err end
    return { label = 'clipboard image', image = { mimeType = 'image/png', data = base64.encode(bytes) } }
  end
  local path = vim.fn.fnamemodify(vim.fn.expand(arg), ':p')
  local mime = M.mime(path)
  if not mime then return nil, 'not an image Lathe can take (png, jpg, gif, webp): ' .. path end
  local bytes = require('lathe.fs').read_disk(path)
  if not bytes then return nil, 'cannot read ' .. path end
  return { label = vim.fn.fnamemodify(path, ':.'), image = { mimeType = mime, data = base64.encode(bytes), path = path } }
end

return M
