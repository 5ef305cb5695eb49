-- The person's decision on each file a turn changed (lathe.changes holds
-- them): :LatheKeep / :LatheUndo, or the chat's keys on a changed file's line.
-- The chat's "Changed files" lines then say "kept" or "undone".
local changes = require('lathe.changes')
local chat = require('lathe.chat')
local M = {}

local function notify(msg, level) vim.notify('Lathe: ' .. msg, level or vim.log.levels.INFO) end

-- Keep or undo a file Lathe changed.
local function decide(path, keep, force)
  local done, why
  if keep then done = changes.keep(path) else done, why = changes.undo(path, force) end
  if not done then return notify(why or ('not under review: ' .. path), vim.log.levels.WARN) end
  for _, b in ipairs(chat.transcript.blocks) do
    if b.kind == 'changes' then
      for _, f in ipairs(b.files) do if f.path == path and not f.decided then f.decided = keep and 'kept' or 'undone' end end
    end
  end
  chat.redraw_changes()
end

-- With no path, the one file under review, else a choice among them.
local function decide_cmd(keep)
  return function(arg, force)
    if arg and arg ~= '' then return decide(vim.fn.fnamemodify(arg, ':p'), keep, force) end
    local files = changes.pending()
    if #files == 0 then return notify('no changed file awaits a decision') end
    if #files == 1 then return decide(files[1].path, keep, force) end
    vim.ui.select(files, { prompt = keep and 'Keep the changes to' or 'Undo the changes to',
      format_item = function(f) return f.rel end }, function(f) if f then decide(f.path, keep, force) end end)
  end
end
-- :LatheKeep [file] and :LatheUndo[!] [file] (! : even over the person's later edits).
M.keep, M.undo = decide_cmd(true), decide_cmd(false)

-- The "Changed files" section at the end of the chat, when files await a
-- decision: after a turn that wrote, and after the chat starts over (:LatheNew,
-- a reopened session) while files are still under review.
function M.show_pending()
  local files = changes.pending()
  local km = require('lathe.keymaps')
  if #files > 0 then chat.apply(chat.transcript:changes(files, km.label('accept'), km.label('reject'))) end
end

-- On a changed file's line in the chat.
function M.at_cursor(keep)
  local b = chat.block_at(vim.api.nvim_win_get_cursor(0)[1])
  local rel = b and b.kind == 'changes' and vim.api.nvim_get_current_line():match('^%- `(.-)`')
  if not rel then return notify('put the cursor on a changed file (### Changed files)') end
  for _, f in ipairs(b.files) do if f.rel == rel then return decide(f.path, keep) end end
end

return M
