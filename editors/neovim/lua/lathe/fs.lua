-- ACP fs/read_text_file and fs/write_text_file, answered from Neovim's
-- buffers: a loaded buffer is the truth (unsaved text included), so Lathe
-- reads what the person sees and its edits land where the person works.
local config = require('lathe.config')
local diff = require('lathe.diff')
local uv = vim.loop
local M = {}

local function real(path) return uv.fs_realpath(path) or path end

-- The loaded buffer showing this absolute path, if any.
function M.find_buf(path)
  local want = real(path)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      local name = vim.api.nvim_buf_get_name(b)
      if name ~= '' and (name == path or real(name) == want) then return b end
    end
  end
end

-- A buffer's text as it would be written ('eol'/'fixeol' decide the last newline).
function M.buffer_text(b)
  local lines = vim.api.nvim_buf_get_lines(b, 0, -1, false)
  if #lines == 1 and lines[1] == '' then return '' end
  local text = table.concat(lines, '\n')
  if vim.bo[b].eol or vim.bo[b].fixeol then text = text .. '\n' end
  return text
end

-- A file's bytes, or nil when it cannot be read.
function M.read_disk(path)
  local f = io.open(path, 'rb')
  if not f then return nil end
  local text = f:read('*a')
  f:close()
  return text
end

-- The text of path now: its loaded buffer's, else the disk's (nil: no such file).
function M.current_text(path)
  local b = M.find_buf(path)
  if b then return M.buffer_text(b) end
  return M.read_disk(path)
end

-- The 1-based `line` and `limit` parameters select a slice of lines.
local function slice(text, line, limit)
  if not line and not limit then return text end
  local lines = vim.split(text, '\n', { plain = true })
  local first = math.max(line or 1, 1)
  local last = limit and math.min(#lines, first + limit - 1) or #lines
  local out = {}
  for i = first, last do out[#out + 1] = lines[i] end
  return table.concat(out, '\n')
end

function M.read(params, reply)
  local text = M.current_text(params.path)
  if not text then
    return reply(nil, { code = -32002, message = 'Resource not found: ' .. params.path })
  end
  reply({ content = slice(text, params.line, params.limit) })
end

local function save(b)
  if not config.options.write_edits then return true end
  vim.fn.mkdir(vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ':h'), 'p')
  return pcall(vim.api.nvim_buf_call, b, function() vim.cmd('silent write') end)
end

-- One nvim_buf_set_lines over the changed span: one undo step for the whole edit.
function M.apply_to_buffer(b, content)
  local old = vim.api.nvim_buf_get_lines(b, 0, -1, false)
  local new = diff.lines(content)
  if #new == 0 then new = { '' } end
  local first, last, repl = diff.span(old, new)
  if not (first == last and #repl == 0) then
    -- Its own undo step, even right after another change no key press came between.
    vim.bo[b].undolevels = vim.bo[b].undolevels
    vim.api.nvim_buf_set_lines(b, first, last, false, repl)
  end
  return first, #repl
end

function M.write(params, reply)
  local path, content = params.path, params.content or ''
  require('lathe.changes').before(path)
  local b = M.find_buf(path)
  if b then
    local ok, first, count = pcall(M.apply_to_buffer, b, content)
    if not ok then return reply(nil, { code = -32603, message = 'Cannot edit the buffer: ' .. tostring(first) }) end
    require('lathe.review').applied(b, first, count)
    local saved, err = save(b)
    require('lathe.changes').wrote(path)
    if not saved then
      return reply(nil, { code = -32603, message = 'Edited the buffer but could not save it: ' .. tostring(err) })
    end
    return reply({})
  end
  local existed = uv.fs_stat(path) ~= nil
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  local f, err = io.open(path, 'wb')
  if not f then return reply(nil, { code = -32603, message = 'Cannot write ' .. path .. ': ' .. tostring(err) }) end
  f:write(content)
  f:close()
  if not existed then -- a new file opens in a buffer, so the person sees it in :ls
    local nb = vim.fn.bufadd(path)
    vim.fn.bufload(nb)
    vim.bo[nb].buflisted = true
  end
  require('lathe.changes').wrote(path) -- as it reads now (a new file's buffer included)
  reply({})
end

return M
