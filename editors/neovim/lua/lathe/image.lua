-- Images for a prompt: a file by path, or the clipboard's image through
-- wl-paste (Wayland) or xclip (X11), whichever is installed.
local base64 = require('lathe.base64')
local M = {}

local types = { png = 'image/png', jpg = 'image/jpeg', jpeg = 'image/jpeg', gif = 'image/gif', webp = 'image/webp' }

function M.mime(path) return types[(path:match('%.([%w]+)$') or ''):lower()] end

-- The clipboard's PNG bytes, or nil and why not.
local function clipboard()
  local tools = {
    { 'wl-paste', { 'wl-paste', '--no-newline', '--type', 'image/png' } },
    { 'xclip', { 'xclip', '-selection', 'clipboard', '-t', 'image/png', '-o' } },
  }
  for _, t in ipairs(tools) do
    if vim.fn.executable(t[1]) == 1 then
      local out = vim.fn.system(t[2])
      if vim.v.shell_error ~= 0 or out == '' then return nil, 'the clipboard holds no PNG image (' .. t[1] .. ')' end
      return out
    end
  end
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
