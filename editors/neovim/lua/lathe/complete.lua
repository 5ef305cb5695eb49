-- Completion in the prompt buffer: /commands from Lathe's
-- available_commands_update (none when Lathe sends none) and #references.
local context = require('lathe.context')
local M = {}

local function commands() return (require('lathe.client').session or {}).commands or {} end

-- Items for the word before the cursor: '/' at the start of the prompt, or '#'.
function M.items(prefix, first_line)
  local out = {}
  if prefix:sub(1, 1) == '/' and first_line then
    for _, c in ipairs(commands()) do
      local word = '/' .. c.name
      if word:sub(1, #prefix) == prefix then
        out[#out + 1] = { word = word .. ' ', abbr = word, menu = c.description or '', info = c.input and c.input.hint or '' }
      end
    end
  elseif prefix:sub(1, 1) == '#' then
    local words = { '#buffer', '#buffers' }
    for _, c in ipairs(context.candidates()) do words[#words + 1] = '#' .. c.rel end
    for _, w in ipairs(words) do
      if w:sub(1, #prefix) == prefix then out[#out + 1] = { word = w, menu = 'open buffer' } end
    end
  end
  return out
end

_G.LatheOmnifunc = function(findstart, base)
  local line = vim.api.nvim_get_current_line()
  local col = vim.api.nvim_win_get_cursor(0)[2]
  if findstart == 1 then
    local start = col
    while start > 0 and not line:sub(start, start):match('%s') do start = start - 1 end
    local c = line:sub(start + 1, start + 1)
    if c ~= '/' and c ~= '#' then return -3 end
    return start
  end
  local first = vim.api.nvim_win_get_cursor(0)[1] == 1 and base:sub(1, 1) == '/'
  return M.items(base, first)
end

-- The menu waits for the person: nothing is inserted or selected until they
-- choose ('completeopt' is global on 0.7 and 0.10, so it is set while they
-- type in the prompt and put back when they leave it).
local WAIT = 'menuone,noinsert,noselect'

local function hold(buf)
  local saved
  local group = vim.api.nvim_create_augroup('lathe_complete_' .. buf, { clear = true })
  vim.api.nvim_create_autocmd({ 'InsertEnter', 'BufEnter' }, {
    group = group, buffer = buf,
    callback = function(a)
      if a.event == 'BufEnter' and vim.fn.mode():sub(1, 1) ~= 'i' then return end
      saved = saved or vim.o.completeopt
      vim.o.completeopt = WAIT
    end,
  })
  vim.api.nvim_create_autocmd({ 'InsertLeave', 'BufLeave' }, {
    group = group, buffer = buf,
    callback = function() if saved then vim.o.completeopt = saved; saved = nil end end,
  })
end

-- Typing '/' at the very start of the prompt opens the command menu, when Lathe sent commands.
function M.attach(buf)
  hold(buf)
  vim.api.nvim_create_autocmd('TextChangedI', {
    buffer = buf,
    callback = function()
      local cur = vim.api.nvim_win_get_cursor(0)
      if cur[1] == 1 and cur[2] == 1 and vim.api.nvim_get_current_line() == '/' and #commands() > 0 then
        vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<C-x><C-o>', true, false, true), 'n', false)
      end
    end,
  })
end

return M
