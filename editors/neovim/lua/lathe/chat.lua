-- The chat: a Markdown buffer rendering the transcript (thoughts folded, a
-- status beside each tool call) and a prompt buffer under it, in splits or
-- floating windows. Only changed blocks are redrawn. The current plan and the
-- queued prompts are pinned after the last block, just above the prompt: new
-- blocks go in before them, and they are redrawn in place.
local config = require('lathe.config')
local render = require('lathe.render')
local transcript = require('lathe.transcript')
local keymaps = require('lathe.keymaps')

local M = { counts = {}, pinned = 0 }
M.ns = vim.api.nvim_create_namespace('lathe_chat')
M.transcript = transcript.new()

local status_hl = {
  pending = 'LatheToolPending', in_progress = 'LatheToolRunning',
  completed = 'LatheToolDone', failed = 'LatheToolFailed',
}

local function valid_buf(b) return b and vim.api.nvim_buf_is_valid(b) end
local function valid_win(w) return w and vim.api.nvim_win_is_valid(w) end

local function scratch(name, ft)
  local b = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(b, name)
  vim.bo[b].buftype = 'nofile'
  vim.bo[b].bufhidden = 'hide'
  vim.bo[b].swapfile = false
  vim.bo[b].filetype = ft
  return b
end

function M.buffers()
  if not valid_buf(M.buf) then
    M.buf = scratch('lathe://chat', 'markdown')
    vim.bo[M.buf].modifiable = false
    M.counts, M.pinned = {}, 0
    M.redraw_all()
    keymaps.set(M.buf, 'n', 'cancel', function() require('lathe').cancel() end, 'cancel the turn')
    keymaps.set(M.buf, 'n', 'close', function() M.close() end, 'close the chat')
    -- On a changed file's line: keep Lathe's change, or undo it.
    keymaps.set(M.buf, 'n', 'accept', function() require('lathe').decide_at_cursor(true) end, 'keep the changed file')
    keymaps.set(M.buf, 'n', 'reject', function() require('lathe').decide_at_cursor(false) end, 'undo the changed file')
  end
  if not valid_buf(M.prompt) then
    M.prompt = scratch('lathe://prompt', 'markdown')
    vim.bo[M.prompt].omnifunc = 'v:lua.LatheOmnifunc'
    local send = function() require('lathe').send_prompt_buffer() end
    keymaps.set(M.prompt, 'n', 'send', send, 'send the prompt')
    keymaps.set(M.prompt, 'i', 'send_insert', function() vim.cmd('stopinsert') send() end, 'send the prompt')
    keymaps.set(M.prompt, 'n', 'cancel', function() require('lathe').cancel() end, 'cancel the turn')
    require('lathe.complete').attach(M.prompt)
  end
end

-- Window options shared by the chat window in every layout.
local function dress_chat(w)
  vim.wo[w].wrap = true
  vim.wo[w].linebreak = true
  vim.wo[w].number = false
  vim.wo[w].relativenumber = false
  vim.wo[w].foldmethod = 'expr'
  vim.wo[w].foldexpr = 'v:lua.LatheChatFold(v:lnum)'
  vim.wo[w].foldtext = 'v:lua.LatheChatFoldText()'
  vim.wo[w].foldlevel = 0
  vim.wo[w].statusline = '%{v:lua.LatheStatus()}'
end

local function size(frac, total)
  return frac > 1 and math.floor(frac) or math.max(math.floor(total * frac), 10)
end

local function open_float()
  local f = config.options.float
  local w, h = size(f.width, vim.o.columns), size(f.height, vim.o.lines - 2)
  local ph = config.options.prompt_height
  local row, col = math.floor((vim.o.lines - h) / 2), math.floor((vim.o.columns - w) / 2)
  M.win = vim.api.nvim_open_win(M.buf, false, {
    relative = 'editor', row = row, col = col, width = w, height = h - ph - 2,
    border = f.border, style = 'minimal',
  })
  M.prompt_win = vim.api.nvim_open_win(M.prompt, true, {
    relative = 'editor', row = row + h - ph, col = col, width = w, height = ph,
    border = f.border, style = 'minimal',
  })
end

local function open_split()
  local layout = config.options.layout
  if layout == 'below' then
    vim.cmd('botright ' .. size(config.options.height, vim.o.lines) .. 'split')
  else
    vim.cmd((layout == 'left' and 'topleft ' or 'botright ') .. size(config.options.width, vim.o.columns) .. 'vsplit')
  end
  M.win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(M.win, M.buf)
  vim.cmd('belowright ' .. config.options.prompt_height .. 'split')
  M.prompt_win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(M.prompt_win, M.prompt)
  vim.wo[M.prompt_win].winfixheight = true
end

-- Opens (or focuses) the chat; the prompt window gets the cursor.
function M.open()
  M.buffers()
  if not (valid_win(M.win) and valid_win(M.prompt_win)) then
    M.close()
    if config.options.layout == 'float' then open_float() else open_split() end
    dress_chat(M.win)
    vim.wo[M.prompt_win].statusline = '%{v:lua.LathePromptStatus()}'
  end
  vim.api.nvim_set_current_win(M.prompt_win)
  M.follow()
end

function M.close()
  for _, w in ipairs({ M.prompt_win, M.win }) do
    if valid_win(w) and #vim.api.nvim_list_wins() > 1 then vim.api.nvim_win_close(w, true) end
  end
  M.win, M.prompt_win = nil, nil
end

function M.is_open() return valid_win(M.win) end

-- Keeps the last line in view unless the person is reading in the chat window.
function M.follow()
  if valid_win(M.win) and vim.api.nvim_get_current_win() ~= M.win then
    pcall(vim.api.nvim_win_set_cursor, M.win, { vim.api.nvim_buf_line_count(M.buf), 0 })
  end
end

local function start_of(i)
  local s = 0
  for j = 1, i - 1 do s = s + (M.counts[j] or 0) end
  return s
end

-- Closes a thought's fold (new folds from inserted lines may start open),
-- unless the person is reading inside it.
function M.fold(l1, l2)
  if not valid_win(M.win) or l2 < l1 then return end
  vim.api.nvim_win_call(M.win, function()
    local cur = vim.api.nvim_win_get_cursor(0)[1]
    if vim.api.nvim_get_current_win() == M.win and cur >= l1 and cur <= l2 then return end
    pcall(vim.cmd, ('%d,%dfoldclose'):format(l1, l2))
  end)
end

local function draw_block(i)
  local b = M.transcript.blocks[i]
  local first = start_of(i)
  local lines = render.block(b)
  local old = M.counts[i] or 0
  M.counts[i] = #lines -- before the change: foldexpr runs during it and reads the new layout
  vim.api.nvim_buf_set_lines(M.buf, first, first + old, false, lines)
  if b.kind == 'thought' then M.fold(first + 1, first + #lines - 1) end
  local status = render.status(b)
  if status then
    vim.api.nvim_buf_set_extmark(M.buf, M.ns, first, 0, {
      id = i, virt_text = { { ' ' .. status:gsub('_', ' '), status_hl[status] or 'LatheToolPending' } },
      virt_text_pos = 'eol',
    })
  end
end

-- Redraws the given block indices (ascending, so earlier offsets stay right).
function M.apply(changed)
  if not valid_buf(M.buf) then return end
  if #changed == 0 then return M.pin() end
  local seen, list = {}, {}
  for _, i in ipairs(changed) do
    if not seen[i] then seen[i] = true; list[#list + 1] = i end
  end
  table.sort(list)
  vim.bo[M.buf].modifiable = true
  -- Blocks never drawn yet come after every drawn one.
  for _, i in ipairs(list) do draw_block(i) end
  vim.bo[M.buf].modifiable = false
  M.pin()
end

function M.redraw_all()
  vim.bo[M.buf].modifiable = true
  vim.api.nvim_buf_clear_namespace(M.buf, M.ns, 0, -1)
  vim.api.nvim_buf_set_lines(M.buf, 0, -1, false, {})
  M.counts, M.pinned = {}, 0
  vim.bo[M.buf].modifiable = false
  local all = {}
  for i = 1, #M.transcript.blocks do all[i] = i end
  M.apply(all)
end

-- A new, empty transcript. With `snapshot`, returns a function that puts the
-- old one back (a session that could not be reopened leaves the chat as it was).
function M.reset(snapshot)
  local old = M.transcript
  M.transcript = transcript.new()
  if valid_buf(M.buf) then M.redraw_all() end
  if snapshot then
    return function()
      M.transcript = old
      if valid_buf(M.buf) then M.redraw_all() end
    end
  end
end

-- Redraws what is pinned after the last block (in place): the plan, then the
-- prompts queued behind the running turn; then follows the end.
function M.pin()
  local lines = vim.list_extend(render.plan(M.transcript.plan), render.queued(M.transcript.queue))
  if #lines > 0 or M.pinned > 0 then
    local first = start_of(#M.transcript.blocks + 1)
    vim.bo[M.buf].modifiable = true
    vim.api.nvim_buf_set_lines(M.buf, first, first + M.pinned, false, lines)
    vim.bo[M.buf].modifiable = false
    M.pinned = #lines
  end
  M.follow()
end

-- Redraws the changed-files blocks (a file was kept or undone).
function M.redraw_changes()
  local list = {}
  for i, b in ipairs(M.transcript.blocks) do if b.kind == 'changes' then list[#list + 1] = i end end
  M.apply(list)
end

-- The block (and its kind) at a 1-based chat line.
function M.block_at(lnum)
  local s = 0
  for i, n in ipairs(M.counts) do
    if lnum <= s + n then return M.transcript.blocks[i], i end
    s = s + n
  end
end

function M.lines()
  return valid_buf(M.buf) and vim.api.nvim_buf_get_lines(M.buf, 0, -1, false) or {}
end

-- Thought lines (but not the blank after them) form closed folds.
_G.LatheChatFold = function(lnum)
  local b, i = M.block_at(lnum)
  if b and b.kind == 'thought' and lnum < start_of(i) + M.counts[i] then return 1 end
  return 0
end

_G.LatheChatFoldText = function()
  local n = vim.v.foldend - vim.v.foldstart
  return ('> Thinking (%d line%s, zo opens)'):format(n, n == 1 and '' or 's')
end

return M
