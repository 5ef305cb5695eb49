-- Files Lathe wrote, reviewable until the person decides: the text before
-- Lathe's first write is kept; Keep forgets it, Undo puts it back (one undo
-- step in a loaded buffer, saved like Lathe's own edits; a file Lathe created
-- is removed). The text Lathe last wrote is kept too: a file the person edited
-- since is not undone without `force`, so their edits are never lost silently.
-- It lasts across turns and sessions. A shell command's changes count too: the
-- diffs on its call's final update say what it wrote on disk (M.from_update).
local diff = require('lathe.diff')
local M = { files = {}, order = {} }

local function current(path) return require('lathe.fs').current_text(path) end

-- Before Lathe writes path: remember its text unless a write is already under review.
function M.before(path)
  M.touched = true -- this turn wrote: lathe.init lists the files when it ends
  if M.files[path] then return end
  M.files[path] = { path = path, before = current(path) }
  M.order[#M.order + 1] = path
end

-- Files that differ from their remembered text, in the order Lathe first wrote them.
function M.pending()
  local out = {}
  for _, path in ipairs(M.order) do
    local f = M.files[path]
    local now = current(path)
    if f and now ~= f.before then
      local added, removed = 0, 0
      for _, h in ipairs(diff.hunks(f.before or '', now or '')) do
        added, removed = added + h.new_count, removed + h.old_count
      end
      out[#out + 1] = { path = path, rel = vim.fn.fnamemodify(path, ':.'), added = added, removed = removed }
    end
  end
  return out
end

-- Equal texts, but for the last newline a buffer adds when it loads a file ('fixeol').
local function same(a, b) return a == b or (a and b and (a .. '\n' == b or a == b .. '\n')) or false end

-- After Lathe wrote path: the text it left there.
function M.wrote(path)
  if M.files[path] then M.files[path].wrote, M.files[path].under = current(path), nil end
end

-- A shell command Lathe ran changed path on disk from old_text (nil: it created
-- the file) to new_text. Reviewable like Lathe's writes, from old_text, unless a
-- write is already under review (then the text from before that stays). A loaded
-- buffer the person has not modified is reloaded first, so it shows the command's
-- text; a modified one is left alone (Undo then needs :LatheUndo!).
function M.command_wrote(path, old_text, new_text)
  local fs = require('lathe.fs')
  local b = fs.find_buf(path)
  local modified = b and vim.bo[b].modified
  if b and not modified then
    pcall(vim.api.nvim_buf_call, b, function() vim.cmd('silent edit') end)
  end
  M.touched = true
  if not M.files[path] then
    M.files[path] = { path = path, before = old_text }
    M.order[#M.order + 1] = path
  end
  M.files[path].wrote = modified and new_text or current(path)
  M.files[path].under = modified or nil -- the buffer no longer holds what the file does
end

local function given(v) return v ~= nil and v ~= vim.NIL end

-- A session update (of the chat, or of a sub-agent's nested transcript t): the
-- final update of a shell command (kind execute) names each text file it changed
-- as a diff; those files come under review. An edit's diffs (write_file, replace)
-- are not: they are under review through fs/write_text_file already. Nor is a
-- replayed history's (a reopened session): what still awaits a decision is kept.
function M.from_update(u, t)
  if u.sessionUpdate ~= 'tool_call_update' or require('lathe.client').loading then return end
  if (u.status ~= 'completed' and u.status ~= 'failed') or type(u.content) ~= 'table' then return end
  local b = t and t:tool(u.toolCallId)
  if not b or b.tool_kind ~= 'execute' then return end
  for _, c in ipairs(u.content) do
    if type(c) == 'table' and c.type == 'diff' and type(c.path) == 'string' then
      M.command_wrote(c.path, given(c.oldText) and c.oldText or nil, given(c.newText) and c.newText or '')
    end
  end
end

local function forget(path)
  M.files[path] = nil
  M.order = vim.tbl_filter(function(p) return p ~= path end, M.order)
end

function M.keep(path)
  if not M.files[path] then return false end
  forget(path)
  return true
end

-- Returns true, or false and why not. Without force, a file edited since
-- Lathe's last write is left alone.
function M.undo(path, force)
  local f = M.files[path]
  if not f then return false, 'not under review: ' .. path end
  if not force and f.wrote ~= nil and not same(current(path), f.wrote) then
    return false, vim.fn.fnamemodify(path, ':.') .. ' was edited after Lathe wrote it; undoing would drop those edits.'
      .. ' Undo them first (u), or :LatheUndo! ' .. vim.fn.fnamemodify(path, ':.') .. ' to put back the text from before Lathe anyway'
  end
  local fs = require('lathe.fs')
  local b = fs.find_buf(path)
  if f.before == nil then -- Lathe created it
    if b then pcall(vim.api.nvim_buf_delete, b, { force = true }) end
    local removed, err = os.remove(path)
    if not removed then return false, err end
  elseif b and f.under then
    -- A command changed the file under this (modified) buffer: the old text goes on disk and
    -- the buffer reloads it (one undo step: `u` brings the person's unsaved text back).
    local out, err = io.open(path, 'wb')
    if not out then return false, err end
    out:write(f.before)
    out:close()
    local reloaded, rerr = pcall(vim.api.nvim_buf_call, b, function() vim.cmd('silent edit!') end)
    if not reloaded then return false, tostring(rerr) end
  elseif b then
    fs.apply_to_buffer(b, f.before)
    if require('lathe.config').options.write_edits then
      local saved, err = pcall(vim.api.nvim_buf_call, b, function() vim.cmd('silent write') end)
      if not saved then return false, tostring(err) end
    end
  else
    local out, err = io.open(path, 'wb')
    if not out then return false, err end
    out:write(f.before)
    out:close()
  end
  forget(path)
  return true
end

function M.reset() M.files, M.order = {}, {} end

return M
