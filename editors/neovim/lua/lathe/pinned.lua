-- The current plan, pinned over the top of the chat window: it stays in view
-- while the answer streams in below (the bottom rows are the newest, so they
-- stay uncovered); updated in place, and never focused.
local M = { max_height = 10 }

local marks = { completed = '[x]', in_progress = '[-]', pending = '[ ]' }

-- Lines for plan entries: a heading with the progress, then one line each. Pure.
function M.lines(entries)
  if not entries or #entries == 0 then return {} end
  local done = 0
  local out = {}
  for _, e in ipairs(entries) do
    if e.status == 'completed' then done = done + 1 end
    out[#out + 1] = (' %s %s'):format(marks[e.status] or '[ ]', (e.content or ''):gsub('\n', ' '))
  end
  table.insert(out, 1, (' Plan %d/%d'):format(done, #entries))
  return out
end

local function valid_win(w) return w and vim.api.nvim_win_is_valid(w) end

function M.hide()
  if valid_win(M.win) then vim.api.nvim_win_close(M.win, true) end
  M.win = nil
end

-- Shows `entries` over the top rows of chat_win (hidden when there are none).
function M.show(chat_win, entries)
  local lines = M.lines(entries)
  if #lines == 0 or not valid_win(chat_win) then return M.hide() end
  if not (M.buf and vim.api.nvim_buf_is_valid(M.buf)) then
    M.buf = vim.api.nvim_create_buf(false, true)
    vim.bo[M.buf].bufhidden = 'hide'
  end
  vim.api.nvim_buf_set_lines(M.buf, 0, -1, false, lines)
  local height = math.min(#lines, M.max_height, math.max(vim.api.nvim_win_get_height(chat_win) - 2, 1))
  local cfg = {
    relative = 'win', win = chat_win, anchor = 'NW', row = 0, col = 0,
    width = vim.api.nvim_win_get_width(chat_win), height = height, focusable = false, style = 'minimal',
    zindex = 60, -- above a floating chat
  }
  if valid_win(M.win) then
    vim.api.nvim_win_set_config(M.win, cfg)
  else
    cfg.noautocmd = true
    M.win = vim.api.nvim_open_win(M.buf, false, cfg)
    vim.wo[M.win].winhighlight = 'Normal:LathePlan'
  end
end

return M
