-- Inline review of a proposed edit in the file's own buffer. The buffer keeps
-- the person's text until they accept (Lathe re-reads it before writing, and a
-- rejection must leave it untouched): lines the edit removes are marked in
-- place, lines it adds appear as virtual lines. After the write lands, the
-- added lines stay highlighted until the buffer next changes.
local config = require('lathe.config')
local diff = require('lathe.diff')
local fs = require('lathe.fs')
local keymaps = require('lathe.keymaps')
local M = {}

M.ns = vim.api.nvim_create_namespace('lathe_review')
M.applied_ns = vim.api.nvim_create_namespace('lathe_applied')

function M.hint()
  local parts = {}
  for _, k in ipairs({ { 'accept', 'accept' }, { 'reject', 'reject' }, { 'diff', 'diff split' }, { 'options', 'all options' } }) do
    local label = keymaps.label(k[1])
    if label then parts[#parts + 1] = label .. ' ' .. k[2] end
  end
  parts[#parts + 1] = ':LatheAccept / :LatheReject'
  return 'Review the edit: ' .. table.concat(parts, ' · ')
end

local function lathe_buf(b)
  return vim.api.nvim_buf_get_name(b):match('^lathe://') ~= nil
end

-- Shows buf in the window the person last worked in (not the chat) and
-- returns that window; with no such window, splits one unless `no_split`.
function M.reveal(b, no_split)
  local shown = vim.fn.bufwinid(b)
  if shown ~= -1 then return shown end
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    local wb = vim.api.nvim_win_get_buf(w)
    if not lathe_buf(wb) and vim.api.nvim_win_get_config(w).relative == '' then
      if pcall(vim.api.nvim_win_set_buf, w, b) then return w end
    end
  end
  if no_split then return nil end
  vim.cmd('sbuffer ' .. b)
  return vim.api.nvim_get_current_win()
end
local reveal = M.reveal

local function padded(text)
  local width = math.max(vim.o.columns - 8, 20)
  return text .. string.rep(' ', width - vim.fn.strdisplaywidth(text))
end

-- Marks from ACP diff content. Rows are 0-based; hunks are 1-based.
function M.draw(b, old_text, new_text)
  vim.api.nvim_buf_clear_namespace(b, M.ns, 0, -1)
  local new_lines = diff.lines(new_text)
  local count = vim.api.nvim_buf_line_count(b)
  local drawn = { removed = {}, added = {} } -- what the marks show, for :LatheDiff-free checks
  for i, h in ipairs(diff.hunks(old_text, new_text)) do
    for r = h.old_start - 1, h.old_start + h.old_count - 2 do
      if r < count then
        drawn.removed[#drawn.removed + 1] = r
        vim.api.nvim_buf_set_extmark(b, M.ns, r, 0, {
          line_hl_group = 'LatheReviewDelete', sign_text = '-', sign_hl_group = 'LatheReviewDelete',
        })
      end
    end
    local virt = {}
    for j = h.new_start, h.new_start + h.new_count - 1 do
      virt[#virt + 1] = { { padded(new_lines[j] or ''), 'LatheReviewAdd' } }
      drawn.added[#drawn.added + 1] = new_lines[j] or ''
    end
    -- Added lines go below the last removed line, or below old_start for a pure insertion.
    local anchor = h.old_count > 0 and (h.old_start + h.old_count - 2) or (h.old_start - 1)
    local above = anchor < 0
    anchor = math.min(math.max(anchor, 0), count - 1)
    local opts = { virt_lines = #virt > 0 and virt or nil, virt_lines_above = above }
    if i == 1 then opts.virt_text = { { ' ' .. M.hint(), 'LatheReviewHint' } } end
    vim.api.nvim_buf_set_extmark(b, M.ns, anchor, 0, opts)
  end
  return drawn
end

local function map_review(p)
  local perm = require('lathe.permission')
  p.maps = {}
  for _, k in ipairs({
    { 'accept', function() perm.accept(p) end, 'accept the proposed edit' },
    { 'reject', function() perm.reject(p) end, 'reject the proposed edit' },
    { 'options', function() perm.choose(p) end, 'choose among all options' },
    { 'diff', function() M.diff_split(p) end, 'review the edit in a diff split' },
  }) do
    local lhs = keymaps.set(p.buf, 'n', k[1], k[2], k[3])
    if lhs then p.maps[#p.maps + 1] = { p.buf, lhs } end
  end
end

-- Returns false when the file cannot be shown (the caller falls back to a menu).
function M.show(p, d)
  local b = fs.find_buf(d.path)
  if not b then
    b = vim.fn.bufadd(d.path)
    if not pcall(vim.fn.bufload, b) then return false end
    vim.bo[b].buflisted = true
  end
  p.buf, p.diff = b, d
  if config.options.review.open then pcall(reveal, b) end
  p.drawn = M.draw(b, d.oldText or '', d.newText or '')
  map_review(p)
  return true
end

-- The proposal in a scratch buffer beside the file, both in diff mode.
function M.diff_split(p)
  if not p.buf or p.split_win then return end
  local win = vim.fn.bufwinid(p.buf)
  if win == -1 then reveal(p.buf); win = vim.fn.bufwinid(p.buf) end
  vim.api.nvim_set_current_win(win)
  local scratch = vim.api.nvim_create_buf(false, true)
  local lines = diff.lines(p.diff.newText)
  vim.api.nvim_buf_set_lines(scratch, 0, -1, false, #lines > 0 and lines or { '' })
  vim.bo[scratch].filetype = vim.bo[p.buf].filetype
  vim.bo[scratch].modifiable = false
  pcall(vim.api.nvim_buf_set_name, scratch, 'lathe://proposed/' .. vim.fn.fnamemodify(p.diff.path, ':t'))
  vim.cmd('diffthis')
  vim.cmd('vertical rightbelow sbuffer ' .. scratch)
  vim.cmd('diffthis')
  p.split_win, p.split_buf, p.file_win = vim.api.nvim_get_current_win(), scratch, win
  local perm = require('lathe.permission')
  for _, k in ipairs({ { 'accept', perm.accept }, { 'reject', perm.reject } }) do
    local lhs = keymaps.set(scratch, 'n', k[1], function() k[2](p) end, k[1] .. ' the proposed edit')
    if lhs then p.maps[#p.maps + 1] = { scratch, lhs } end
  end
end

function M.clear(p)
  if not p.buf then return end
  for _, m in ipairs(p.maps or {}) do keymaps.del(m[1], 'n', m[2]) end
  p.maps = {}
  if vim.api.nvim_buf_is_valid(p.buf) then vim.api.nvim_buf_clear_namespace(p.buf, M.ns, 0, -1) end
  if p.split_win and vim.api.nvim_win_is_valid(p.split_win) then vim.api.nvim_win_close(p.split_win, true) end
  if p.file_win and vim.api.nvim_win_is_valid(p.file_win) then
    vim.api.nvim_win_call(p.file_win, function() vim.cmd('diffoff') end)
  end
  if p.split_buf and vim.api.nvim_buf_is_valid(p.split_buf) then pcall(vim.api.nvim_buf_delete, p.split_buf, { force = true }) end
  p.split_win, p.split_buf = nil, nil
end

-- After fs/write_text_file: highlight the lines Lathe wrote (0-based first, count).
function M.applied(b, first, count)
  vim.api.nvim_buf_clear_namespace(b, M.applied_ns, 0, -1)
  for r = first, first + count - 1 do
    vim.api.nvim_buf_set_extmark(b, M.applied_ns, r, 0, { line_hl_group = 'LatheApplied' })
  end
  -- The next change (including `u`) clears them; the save below is not a change.
  local tick = vim.api.nvim_buf_get_changedtick(b)
  vim.api.nvim_create_autocmd({ 'TextChanged', 'TextChangedI' }, {
    buffer = b,
    callback = function()
      if vim.api.nvim_buf_get_changedtick(b) == tick then return end
      vim.api.nvim_buf_clear_namespace(b, M.applied_ns, 0, -1)
      return true
    end,
  })
end

return M
